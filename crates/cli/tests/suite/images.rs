//! `tandem -p --image FILE`: the image goes to the model before the prompt's text, byte for byte when small; a file
//! that is not an image ends the run with its name and why, before anything is sent. Through the real binary
//! against the fake model server.

use tandem_engine::testing::{FakeServer, Script, ScriptedTurn};

use super::commands::{project, run, tandem};

/// A one-pixel PNG.
const PIXEL: [u8; 70] = [
    137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0,
    0, 0, 31, 21, 196, 137, 0, 0, 0, 13, 73, 68, 65, 84, 120, 218, 99, 100, 96, 248, 95, 15, 0, 2,
    135, 1, 128, 235, 71, 186, 146, 0, 0, 0, 0, 73, 69, 78, 68, 174, 66, 96, 130,
];
/// PIXEL in base64.
const PIXEL_BASE64: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

#[tokio::test]
async fn an_image_file_goes_with_the_prompt() {
    let dir = project();
    std::fs::write(dir.path().join("dot.png"), PIXEL).expect("write");
    let server = FakeServer::start(Script::turns([ScriptedTurn::text("One pixel.")]))
        .await
        .expect("server");
    let mut cmd = tandem(Some(&server.url()), dir.path());
    cmd.current_dir(dir.path())
        .args(["-p", "what is this?", "--image", "dot.png"]);

    let out = run(cmd).await;

    assert_eq!(out.code, 0, "stderr: {}", out.stderr);
    assert_eq!(out.stdout.trim(), "One pixel.");
    let requests = server.requests();
    let content = &requests[0].body["messages"][0]["content"];
    assert_eq!(content[0]["type"], "image", "{content}");
    assert_eq!(content[0]["source"]["media_type"], "image/png");
    assert_eq!(content[0]["source"]["data"], PIXEL_BASE64);
    assert_eq!(content[1]["text"], "what is this?");
}

#[tokio::test]
async fn a_file_that_is_not_an_image_stops_the_run_before_anything_is_sent() {
    let dir = project();
    let server = FakeServer::start(Script::turns([ScriptedTurn::text("unused")]))
        .await
        .expect("server");
    for (file, says) in [
        ("README.md", "README.md is not an image that can be sent"),
        ("missing.png", "missing.png: "),
    ] {
        let mut cmd = tandem(Some(&server.url()), dir.path());
        cmd.current_dir(dir.path())
            .args(["-p", "what is this?", "--image", file]);
        let out = run(cmd).await;
        assert_eq!(out.code, 2, "{file}: stderr: {}", out.stderr);
        assert!(out.stderr.contains(says), "{file}: {}", out.stderr);
    }
    assert!(server.requests().is_empty());
}

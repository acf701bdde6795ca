//! A rewind and a file change from another process never interleave: `tandem rewind` takes the lock the file tools
//! take on the folder of each file it writes back, and looks for changes made outside Tandem while it holds it.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use serde_json::{Value, json};
use tandem_engine::fsutil::{FolderLock, LOCK_WAIT};
use tandem_engine::testing::{FakeServer, Script, ScriptedTurn};

use super::commands::{project, run, tandem};

/// Whether process `pid` has `folder` open (as a process waiting for the folder's lock has).
fn has_open(pid: u32, folder: &Path) -> bool {
    std::fs::read_dir(format!("/proc/{pid}/fd"))
        .into_iter()
        .flatten()
        .flatten()
        .any(|fd| std::fs::read_link(fd.path()).is_ok_and(|target| target == folder))
}

#[cfg(target_os = "linux")]
#[tokio::test]
async fn a_rewind_waits_for_another_processs_change_and_then_refuses_to_overwrite_it() {
    let dir = project();
    let home = tempfile::tempdir().expect("home");
    let root = std::fs::canonicalize(dir.path()).expect("canonical");
    let readme = root.join("README.md");
    let server = FakeServer::start(Script::turns([
        ScriptedTurn::tool_use("toolu_r", "Read", json!({"file_path": readme})),
        ScriptedTurn::tool_use(
            "toolu_e",
            "Edit",
            json!({"file_path": readme, "old_string": "42", "new_string": "43"}),
        ),
        ScriptedTurn::text("changed to 43"),
    ]))
    .await
    .expect("server");
    let cmd = |args: &[&str]| {
        let mut cmd = tandem(Some(&server.url()), home.path());
        cmd.current_dir(&root).args(args);
        cmd
    };
    let edited = run(cmd(&[
        "-p",
        "make it 43",
        "--permission-mode",
        "acceptEdits",
    ]))
    .await;
    assert_eq!(edited.code, 0, "{}", edited.stderr);
    let listed = run(cmd(&["rewind"])).await;
    assert_eq!(listed.code, 0, "{}", listed.stderr);
    let prompts =
        serde_json::from_str::<Value>(listed.stdout.trim()).expect("json")["prompts"].clone();
    let prompt = prompts[0]["prompt_id"].as_str().expect("id").to_string();

    // Another process is changing a file in the folder: it holds the folder's lock.
    let changing = FolderLock::for_file(&readme, LOCK_WAIT).expect("lock");
    let mut rewind = cmd(&["rewind", "--to", &prompt]);
    rewind.stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut rewind = rewind.spawn().expect("spawn");
    let pid = rewind.id().expect("pid");
    while !has_open(pid, &root) {
        if let Some(status) = rewind.try_wait().expect("wait") {
            panic!(
                "the rewind ended ({status}) while another process held the folder's lock; README.md now holds {:?}",
                std::fs::read_to_string(&readme)
            );
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // The other process's change lands while the rewind waits.
    std::fs::write(&readme, "changed by another process\n").expect("write");
    drop(changing);

    let out = rewind.wait_with_output().await.expect("rewind ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("changed outside Tandem"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(&readme).expect("read"),
        "changed by another process\n"
    );
}

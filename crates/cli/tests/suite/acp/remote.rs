//! `tandem -p --remote ssh://…`: a real sshd on loopback (`super::sshd`), the remote side running as a second
//! account with its own `tandem acp` against the fake model. A turn's text arrives here and its write lands in the
//! remote folder (owned by that account) while the session is stored here; a remote without `tandem` or too old a
//! one is refused with the command that installs it, storing nothing; sshd killed mid-turn ends the turn as an
//! error naming the host. A RemoteTrigger run takes the same `ssh` to run `tandem -p` there.

use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::process::Stdio;

use serde_json::{Value, json};
use tandem_engine::testing::{FakeServer, Script, ScriptBlock, ScriptedTurn};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, BufReader};

use tandem_engine::ssh::Target;
use tandem_engine::tools::remote_trigger::{RunEnd, run as trigger};

use super::super::commands::{Output, project, run, tandem};
use super::sshd::{RemoteHome, Sshd, USER};

const BIN: &str = env!("CARGO_BIN_EXE_tandem");

/// `tandem -p PROMPT --remote URL --output-format stream-json` in `root`, over `sshd` to its project.
fn remote(home: &Path, root: &Path, sshd: &Sshd, prompt: &str) -> tokio::process::Command {
    remote_at(home, root, sshd, &sshd.url(), prompt)
}

/// The same, to `url` on `sshd`.
fn remote_at(
    home: &Path,
    root: &Path,
    sshd: &Sshd,
    url: &str,
    prompt: &str,
) -> tokio::process::Command {
    let mut cmd = tandem(None, home);
    cmd.current_dir(root)
        .env("TANDEM_SSH_COMMAND", sshd.ssh_command())
        .env_remove("SSH_AUTH_SOCK")
        .env_remove("TANDEM_REMOTE_MINIMUM_VERSION")
        .args(["-p", prompt, "--remote", url])
        .args(["--output-format", "stream-json"]);
    cmd
}

async fn sessions(home: &Path) -> String {
    let mut cmd = tandem(None, home);
    cmd.args(["sessions", "list"]);
    let out = run(cmd).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
    out.stdout
}

fn events(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|v| v.get("event").cloned())
        .collect()
}

/// The folder's file names, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("read dir")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    names.sort();
    names
}

#[tokio::test]
async fn a_remote_turn_writes_on_the_far_side_as_its_account_and_is_stored_here() {
    let dir = project();
    let root = std::fs::canonicalize(dir.path()).expect("canonical");
    let Some(far) = RemoteHome::new(Path::new(BIN)) else {
        return;
    };
    let note = far.project().join("note.txt");
    let server = FakeServer::start(Script::turns([
        ScriptedTurn::new(vec![
            ScriptBlock::Text {
                text: "Writing the note over there.".into(),
            },
            ScriptBlock::ToolUse {
                id: "toolu_r1".into(),
                name: "Write".into(),
                input: json!({"file_path": note.display().to_string(), "content": "from afar\n"}),
            },
        ]),
        ScriptedTurn::text("Done on the far side."),
    ]))
    .await
    .expect("server");
    let sshd = Sshd::start(far, &server.url(), true).await;
    let home = tempfile::tempdir().expect("home");
    let mut cmd = remote(home.path(), &root, &sshd, "Leave a note");
    cmd.arg("--yes");
    let out = run(cmd).await;
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    let result: Value =
        serde_json::from_str(out.stdout.lines().last().expect("result")).expect("json");
    assert_eq!(result["result"], "Done on the far side.");
    assert_eq!(result["remote"], sshd.url());
    let events = events(&out.stdout);
    let text: String = events
        .iter()
        .filter(|e| e["type"] == "text_delta")
        .filter_map(|e| e["text"].as_str())
        .collect();
    assert!(text.starts_with("Writing the note over there."), "{text}");
    // The far side asked; this side's --yes answered.
    assert!(
        events.iter().any(|e| e["type"] == "tool_call_decision"
            && e["tool_use_id"] == "toolu_r1"
            && e["decision"]["decision"] == "allow"),
        "{events:#?}"
    );
    assert!(out.stderr.contains("permission asked"), "{}", out.stderr);
    // The write landed over there, made by the second account; nothing was written here.
    let written = std::fs::read_to_string(&note).expect("the remote note");
    assert_eq!(written, "from afar\n");
    assert_eq!(
        std::fs::metadata(&note).expect("meta").uid(),
        sshd.remote.uid,
        "written by {USER}"
    );
    assert_eq!(names(&root), ["README.md"]);
    // The far engine kept its own record of the turn, saved before the connection went.
    let far_db = rusqlite::Connection::open(sshd.remote.base.join("data/tandem/sessions.db"))
        .expect("far database");
    let far_events: Vec<Value> = far_db
        .prepare("SELECT event FROM events ORDER BY seq")
        .expect("query")
        .query_map([], |row| row.get::<_, String>(0))
        .expect("rows")
        .filter_map(|e| serde_json::from_str(&e.ok()?).ok())
        .collect();
    let far_text: String = far_events
        .iter()
        .filter(|e| e["type"] == "text_delta")
        .filter_map(|e| e["text"].as_str())
        .collect();
    assert!(far_text.ends_with("Done on the far side."), "{far_text}");
    assert_eq!(
        far_events.last().expect("far events")["type"],
        "turn_ended",
        "{far_events:#?}"
    );
    // The model was asked from over there (twice: the call, then the answer).
    assert_eq!(server.requests().len(), 2);
    // Stored here, named by the machine and folder.
    let listed = sessions(home.path()).await;
    let id = result["session_id"].as_str().expect("id");
    assert!(
        listed.contains(id) && listed.contains("Leave a note"),
        "{listed}"
    );
}

#[tokio::test]
async fn resume_with_the_remote_loads_the_far_session_and_goes_on_in_the_stored_one() {
    let dir = project();
    let root = std::fs::canonicalize(dir.path()).expect("canonical");
    let Some(far) = RemoteHome::new(Path::new(BIN)) else {
        return;
    };
    let server = FakeServer::start(Script::turns([
        ScriptedTurn::text("Noted over there: quokka."),
        ScriptedTurn::text("It was quokka."),
    ]))
    .await
    .expect("server");
    let sshd = Sshd::start(far, &server.url(), true).await;
    let home = tempfile::tempdir().expect("home");
    let out = run(remote(home.path(), &root, &sshd, "Remember quokka")).await;
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    let first: Value =
        serde_json::from_str(out.stdout.lines().last().expect("result")).expect("json");
    let id = first["session_id"].as_str().expect("id").to_string();
    let mut cmd = remote(home.path(), &root, &sshd, "Which word?");
    cmd.args(["--resume", &id]);
    let out = run(cmd).await;
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    let second: Value =
        serde_json::from_str(out.stdout.lines().last().expect("result")).expect("json");
    assert_eq!(second["result"], "It was quokka.");
    assert_eq!(second["session_id"], id.as_str());
    // The far engine went on with its own session: the model saw the first turn.
    let sent = server.requests().pop().expect("request").body.to_string();
    assert!(
        sent.contains("Remember quokka") && sent.contains("Noted over there: quokka."),
        "{sent}"
    );
}

#[tokio::test]
async fn a_remote_without_tandem_or_with_an_older_one_names_the_install_and_stores_nothing() {
    let dir = project();
    let root = std::fs::canonicalize(dir.path()).expect("canonical");
    let server = FakeServer::start(Script::turns([ScriptedTurn::text("never")]))
        .await
        .expect("server");
    let Some(far) = RemoteHome::new(Path::new(BIN)) else {
        return;
    };
    let sshd = Sshd::start(far, &server.url(), false).await;
    let home = tempfile::tempdir().expect("home");
    let out = run(remote(home.path(), &root, &sshd, "Anyone there?")).await;
    assert_eq!(out.code, 2, "{}\n{}", out.stdout, out.stderr);
    let host = format!("{USER}@127.0.0.1:{}", sshd.port);
    assert!(
        out.stderr
            .contains(&format!("{host} has no `tandem` on the PATH")),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains(&format!(
            "ssh -p {} {USER}@127.0.0.1 'mkdir -p ~/.local/bin && cat > ~/.local/bin/tandem",
            sshd.port
        )),
        "{}",
        out.stderr
    );
    drop(sshd);

    // A Tandem older than this one needs (the minimum raised for the check).
    let Some(far) = RemoteHome::new(Path::new(BIN)) else {
        return;
    };
    let sshd = Sshd::start(far, &server.url(), true).await;
    // A folder the far side does not have: its session/new is refused, named with the host.
    let gone = sshd.url().replace("/proj", "/no-such-folder");
    let out = run(remote_at(home.path(), &root, &sshd, &gone, "Anyone there?")).await;
    assert_eq!(out.code, 2, "{}\n{}", out.stdout, out.stderr);
    assert!(
        out.stderr.contains(&format!(
            "the agent `tandem on {USER}@127.0.0.1:{}` could not open a session",
            sshd.port
        )) && out.stderr.contains("no-such-folder does not exist"),
        "{}",
        out.stderr
    );
    let mut cmd = remote(home.path(), &root, &sshd, "Anyone there?");
    cmd.env("TANDEM_REMOTE_MINIMUM_VERSION", "99.0.0");
    let out = run(cmd).await;
    assert_eq!(out.code, 2, "{}\n{}", out.stdout, out.stderr);
    assert!(
        out.stderr.contains(&format!(
            "Tandem on {USER}@127.0.0.1:{} is version {}, older than 99.0.0",
            sshd.port,
            env!("CARGO_PKG_VERSION")
        )),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("mkdir -p ~/.local/bin"),
        "{}",
        out.stderr
    );
    assert!(server.requests().is_empty());
    assert!(!sessions(home.path()).await.contains("Anyone there?"));
}

#[tokio::test]
async fn sshd_killed_mid_turn_ends_the_turn_as_an_error_naming_the_host() {
    let dir = project();
    let root = std::fs::canonicalize(dir.path()).expect("canonical");
    // message_start, content_block_start and two deltas, then nothing: the turn is under way when sshd goes.
    let mut stalled = ScriptedTurn::text("Thinking about it for a long while, then more.");
    stalled.stall_after_chunks = Some(4);
    let server = FakeServer::start(Script::turns([stalled]))
        .await
        .expect("server");
    let Some(far) = RemoteHome::new(Path::new(BIN)) else {
        return;
    };
    let mut sshd = Sshd::start(far, &server.url(), true).await;
    let home = tempfile::tempdir().expect("home");
    let mut cmd = remote(home.path(), &root, &sshd, "Think it over");
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("tandem runs");
    let mut stderr = child.stderr.take().expect("stderr");
    let errors = tokio::spawn(async move {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text).await;
        text
    });
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let mut stdout = String::new();
    // Wait for the first text to arrive here, then take the server away.
    while let Some(line) = lines.next_line().await.expect("line") {
        stdout.push_str(&line);
        stdout.push('\n');
        if line.contains("\"text_delta\"") {
            break;
        }
    }
    assert!(stdout.contains("text_delta"), "no text came: {stdout}");
    sshd.kill();
    while let Some(line) = lines.next_line().await.expect("line") {
        stdout.push_str(&line);
        stdout.push('\n');
    }
    let code = child.wait().await.expect("exit").code().unwrap_or(-1);
    let out = Output {
        code,
        stdout,
        stderr: errors.await.expect("stderr"),
    };
    assert_eq!(out.code, 1, "{}\n{}", out.stdout, out.stderr);
    assert!(
        out.stderr.contains(&format!(
            "the connection to {USER}@127.0.0.1:{} was lost during the turn",
            sshd.port
        )),
        "{}",
        out.stderr
    );
    let events = events(&out.stdout);
    assert_eq!(
        events.last().expect("events"),
        &json!({"type": "turn_ended", "stop_reason": "error"})
    );
    // Nothing was written here; the turn is stored with what had streamed, ended by the error.
    assert_eq!(names(&root), ["README.md"]);
    assert!(sessions(home.path()).await.contains("Think it over"));
    let init: Value = serde_json::from_str(out.stdout.lines().next().expect("init")).expect("json");
    let db = rusqlite::Connection::open(home.path().join(".local/share/tandem/sessions.db"))
        .expect("database");
    let mut query = db
        .prepare("SELECT event FROM events WHERE session_id = ?1 ORDER BY seq")
        .expect("query");
    let stored: Vec<Value> = query
        .query_map([init["session_id"].as_str().expect("id")], |row| {
            row.get::<_, String>(0)
        })
        .expect("rows")
        .filter_map(|e| serde_json::from_str(&e.ok()?).ok())
        .collect();
    assert!(
        stored.iter().any(|e| e["type"] == "error"
            && e["message"]
                .as_str()
                .unwrap_or("")
                .contains("closed the connection")),
        "{stored:#?}"
    );
    assert_eq!(
        stored.last().expect("stored events"),
        &json!({"type": "turn_ended", "stop_reason": "error"})
    );
}

#[tokio::test]
async fn a_remote_trigger_run_is_tandem_p_on_the_far_side_over_the_real_ssh() {
    let Some(far) = RemoteHome::new(Path::new(BIN)) else {
        return;
    };
    let server = FakeServer::start(Script::turns([ScriptedTurn::text(
        "The nightly build is green.",
    )]))
    .await
    .expect("server");
    let sshd = Sshd::start(far, &server.url(), true).await;
    let target = Target::parse(&sshd.url()).expect("target");
    let end = trigger::run(
        &target,
        Some(&sshd.ssh_command()),
        "check the nightly 'build'",
    )
    .await;
    match &end {
        RunEnd::Exited {
            code: Some(0),
            stdout,
            ..
        } => assert!(stdout.contains("The nightly build is green."), "{end:?}"),
        other => panic!("the run failed: {other:?}"),
    }
    // The far side's tandem asked the model with the prompt as written, from the remote folder.
    let asked = server.requests()[0].body.to_string();
    assert!(asked.contains("check the nightly 'build'"), "{asked}");
    assert!(
        asked.contains(&sshd.remote.project().display().to_string()),
        "{asked}"
    );
}

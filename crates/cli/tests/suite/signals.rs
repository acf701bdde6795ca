//! Signals stop a `tandem -p` run at once: Ctrl-C while MCP servers start sends nothing to the model, and a
//! hang-up or SIGTERM mid-stream ends the turn (stored as it is) instead of waiting for the answer to finish, also
//! when the hang-up was ignored by whoever started the process.

use std::process::Stdio;
use std::time::Duration;

use serde_json::json;
use tandem_engine::testing::{FakeServer, Script, ScriptedTurn};
use tokio::process::Command;

use super::commands::{project, tandem};

fn signal(pid: u32, name: &str) {
    let sent = std::process::Command::new("kill")
        .args([&format!("-{name}"), &pid.to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success());
}

/// Waits (on a condition, polled) until `ready` holds.
async fn until(mut ready: impl FnMut() -> bool) {
    while !ready() {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn ctrl_c_while_mcp_servers_start_stops_before_the_model_is_asked() {
    let dir = project();
    let server = FakeServer::start(Script::turns([ScriptedTurn::text("never asked")]))
        .await
        .expect("server");
    let started = dir.path().join("server-started");
    // A stdio server that never answers `initialize`: the run waits for it (up to 30 s) before the prompt.
    let config = json!({"mcpServers": {"silent": {
        "command": "sh", "args": ["-c", format!("touch '{}'; exec sleep 600", started.display())]
    }}});
    let mut cmd = tandem(Some(&server.url()), dir.path());
    cmd.current_dir(dir.path())
        .args(["--mcp-config", &config.to_string(), "-p", "hello"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let child = cmd.spawn().expect("spawn");
    until(|| started.exists()).await;

    signal(child.id().expect("pid"), "INT");
    let out = child.wait_with_output().await.expect("output");
    assert_eq!(
        out.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        server.requests().is_empty(),
        "the prompt was sent after Ctrl-C"
    );
}

/// `tandem -p` started through `sh` with SIGHUP ignored on entry, as `nohup` or some harnesses leave it.
fn tandem_ignoring_hangups(url: &str, home: &std::path::Path) -> Command {
    let plain = tandem(Some(url), home);
    let plain = plain.as_std();
    let mut sh = Command::new("sh");
    sh.arg("-c")
        .arg("trap '' HUP; exec \"$0\" \"$@\"")
        .arg(plain.get_program())
        .stdin(Stdio::null());
    for (key, value) in plain.get_envs() {
        match value {
            Some(value) => sh.env(key, value),
            None => sh.env_remove(key),
        };
    }
    sh
}

#[tokio::test]
async fn a_hang_up_or_sigterm_mid_stream_ends_the_run_with_the_signals_code() {
    for (name, code) in [("HUP", 129), ("TERM", 143)] {
        let dir = project();
        // About a minute of answer: the signal comes long before its end, however busy the machine.
        let mut slow = ScriptedTurn::text("tick ".repeat(240) + "THE END");
        slow.delta_chars = 4;
        slow.chunk_delay_ms = 200;
        let server = FakeServer::start(Script::turns([slow]))
            .await
            .expect("server");
        let mut cmd = tandem_ignoring_hangups(&server.url(), dir.path());
        cmd.current_dir(dir.path())
            .args(["-p", "count"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let child = cmd.spawn().expect("spawn");
        until(|| {
            server
                .timeline()
                .iter()
                .any(|m| m.what == "content_block_delta")
        })
        .await;

        signal(child.id().expect("pid"), name);
        let out = child.wait_with_output().await.expect("output");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(code),
            "SIG{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            !stdout.contains("THE END"),
            "SIG{name}: the answer ran to its end"
        );
    }
}

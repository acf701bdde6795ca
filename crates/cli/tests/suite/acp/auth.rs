//! `tandem acp` without a model key: `initialize` lists the saved-key and terminal-login methods, a new session is
//! refused with `auth_required`, `authenticate` fails while there is still no key; after the terminal login
//! (`tandem acp --login`, the key on its stdin) has saved one, `authenticate` succeeds, a session opens and its
//! prompt reaches the model with that key. Every message is checked against the protocol's schema. Hosted the other
//! way round (`tandem -p --agent`), a keyless `tandem acp` is refused with its login methods named.

use std::io::Write;
use std::path::Path;
use std::process::Stdio;

use agent_client_protocol::schema::ProtocolVersion;
use agent_client_protocol::v1::schema::{
    AuthenticateRequest, InitializeRequest, NewSessionRequest, PromptRequest, StopReason,
};
use agent_client_protocol::{AcpAgent, AcpAgentConfig};
use tandem_engine::testing::{FakeServer, Script, ScriptedTurn};

use super::super::commands::project;
use super::schema::{self, Wire};
use super::{BIN, Seen, connect, text};

/// The environment of a Tandem with a home of its own, no key and no keyring.
fn keyless_env(url: &str, home: &Path) -> Vec<(String, String)> {
    vec![
        ("HOME".into(), home.display().to_string()),
        (
            "XDG_CONFIG_HOME".into(),
            home.join(".config").display().to_string(),
        ),
        (
            "XDG_DATA_HOME".into(),
            home.join(".local/share").display().to_string(),
        ),
        ("ANTHROPIC_BASE_URL".into(), url.to_string()),
        ("ANTHROPIC_API_KEY".into(), String::new()),
        (tandem_engine::settings::NO_KEYRING_ENV.into(), "1".into()),
    ]
}

/// `tandem acp --login` as a client's terminal would run it, with `key` typed on its stdin.
fn login(env: &[(String, String)], key: &str) -> std::process::Output {
    let mut child = std::process::Command::new(BIN)
        .args(["acp", "--login"])
        .envs(env.iter().cloned())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("login starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(format!("{key}\n").as_bytes())
        .expect("the key is typed");
    child.wait_with_output().expect("login ends")
}

#[tokio::test]
async fn without_a_key_sessions_wait_for_the_terminal_login() {
    let dir = project();
    let home = tempfile::tempdir().expect("home");
    let server = FakeServer::start(Script::turns([ScriptedTurn::text("hello with a key")]))
        .await
        .expect("server");
    let env = keyless_env(&server.url(), home.path());
    let wire = Wire::default();
    let recorder = wire.clone();
    let agent = AcpAgent::new(AcpAgentConfig::new(BIN).arg("acp").envs(env.clone()))
        .with_debug(move |line, direction| recorder.record(line, direction));
    let cwd = std::fs::canonicalize(dir.path()).expect("canonical");
    let seen = Seen::default();
    let env_for_login = env.clone();
    connect(agent, &seen, "allow_once", async move |cx| {
        let init = cx
            .send_request(InitializeRequest::new(ProtocolVersion::V1))
            .block_task()
            .await?;
        let methods = serde_json::to_value(&init.auth_methods).expect("methods");
        assert_eq!(methods[0]["id"], "saved-key", "{methods}");
        assert_eq!(methods[1]["type"], "terminal", "{methods}");
        assert_eq!(
            methods[1]["args"],
            serde_json::json!(["--login"]),
            "{methods}"
        );

        let refused = cx
            .send_request(NewSessionRequest::new(cwd.clone()))
            .block_task()
            .await
            .expect_err("no key: no session");
        assert_eq!(
            i32::from(refused.code),
            -32000,
            "auth_required: {refused:?}"
        );
        let still = cx
            .send_request(AuthenticateRequest::new("saved-key"))
            .block_task()
            .await
            .expect_err("still no key");
        assert_eq!(i32::from(still.code), -32000, "{still:?}");

        let out = login(&env_for_login, "sk-typed-at-login");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        cx.send_request(AuthenticateRequest::new("login"))
            .block_task()
            .await?;
        let session = cx
            .send_request(NewSessionRequest::new(cwd.clone()))
            .block_task()
            .await?;
        let done = cx
            .send_request(PromptRequest::new(session.session_id.clone(), text("hi")))
            .block_task()
            .await?;
        assert_eq!(done.stop_reason, StopReason::EndTurn);
        Ok(())
    })
    .await;
    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].header("x-api-key"), Some("sk-typed-at-login"));
    assert!(schema::validate(&wire.lines()) > 6);
}

#[tokio::test]
async fn hosting_an_agent_that_wants_a_login_names_its_ways_and_stores_nothing() {
    let dir = project();
    let root = std::fs::canonicalize(dir.path()).expect("canonical");
    let server = FakeServer::start(Script::turns([ScriptedTurn::text("never")]))
        .await
        .expect("server");
    let agent_home = tempfile::tempdir().expect("agent home");
    let env: serde_json::Map<String, serde_json::Value> =
        keyless_env(&server.url(), agent_home.path())
            .into_iter()
            .map(|(k, v)| (k, serde_json::Value::String(v)))
            .collect();
    let home = super::hosted::home(
        serde_json::json!({"keyless": {"command": BIN, "args": ["acp"], "env": env}}),
        serde_json::json!({}),
    );
    let out = super::hosted::hosted(home.path(), &root, "keyless", "Anyone there?", &[]).await;
    assert_ne!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains("wants a login"), "{}", out.stderr);
    assert!(out.stderr.contains("`--login`"), "{}", out.stderr);
    assert!(out.stderr.contains("agentServers"), "{}", out.stderr);
    assert!(server.requests().is_empty());
    assert!(
        !super::hosted::sessions(home.path())
            .await
            .contains("Anyone there?")
    );
}

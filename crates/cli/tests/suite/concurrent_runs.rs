//! Several `tandem -p` processes on one session database at once: every run is stored, runs continuing one session
//! take turns (one writer per session) and none drops an answer.

use futures::future::join_all;
use serde_json::Value;
use tandem_engine::model::Role;
use tandem_engine::store::SessionStore;
use tandem_engine::testing::{FakeServer, Script, ScriptedTurn};

use super::commands::{project, run, tandem};

fn database(home: &std::path::Path) -> SessionStore {
    SessionStore::open(&home.join(".local/share/tandem/sessions.db")).expect("the database opens")
}

fn texts(messages: &[tandem_engine::model::Message], role: Role) -> Vec<String> {
    let mut out: Vec<String> = messages
        .iter()
        .filter(|m| m.role == role)
        .map(|m| {
            serde_json::to_value(m).expect("json")["content"][0]["text"]
                .as_str()
                .unwrap_or_default()
                .to_string()
        })
        .collect();
    out.sort();
    out
}

#[tokio::test]
async fn six_runs_at_once_on_a_fresh_database_store_six_sessions() {
    let dir = project();
    let home = tempfile::tempdir().expect("home");
    let server = FakeServer::start(Script::turns(
        (0..6).map(|i| ScriptedTurn::text(format!("answer {i}"))),
    ))
    .await
    .expect("server");
    let runs = (0..6).map(|i| {
        let mut cmd = tandem(Some(&server.url()), home.path());
        cmd.current_dir(dir.path())
            .args(["--output-format", "json", "-p", &format!("prompt {i}")]);
        run(cmd)
    });
    for out in join_all(runs).await {
        assert_eq!(out.code, 0, "{}", out.stderr);
    }
    let store = database(home.path());
    let folder = std::fs::canonicalize(dir.path()).expect("folder");
    assert_eq!(store.list_sessions(&folder).expect("list").len(), 6);
    store.check_integrity().expect("intact");
}

#[tokio::test]
async fn four_continues_at_once_take_turns_and_keep_every_answer() {
    let dir = project();
    let home = tempfile::tempdir().expect("home");
    let server = FakeServer::start(Script::turns(
        (0..5).map(|i| ScriptedTurn::text(format!("answer {i}"))),
    ))
    .await
    .expect("server");
    let prompt = |args: &[&str]| {
        let mut cmd = tandem(Some(&server.url()), home.path());
        cmd.current_dir(dir.path())
            .args(["--output-format", "json"])
            .args(args);
        cmd
    };
    let first = run(prompt(&["-p", "first"])).await;
    assert_eq!(first.code, 0, "{}", first.stderr);
    let id = serde_json::from_str::<Value>(first.stdout.trim()).expect("json")["session_id"]
        .as_str()
        .expect("an id")
        .to_string();

    let names = ["a", "b", "c", "d"];
    let runs = names.map(|p| run(prompt(&["--continue", "-p", p])));
    for out in join_all(runs).await {
        assert_eq!(out.code, 0, "{}", out.stderr);
        let session = serde_json::from_str::<Value>(out.stdout.trim()).expect("json");
        assert_eq!(session["session_id"], id.as_str());
    }

    let store = database(home.path());
    let loaded = store.load_session(&id).expect("load").expect("stored");
    assert_eq!(
        texts(&loaded.history, Role::User),
        ["a", "b", "c", "d", "first"]
    );
    assert_eq!(
        texts(&loaded.history, Role::Assistant),
        (0..5).map(|i| format!("answer {i}")).collect::<Vec<_>>()
    );
    // Each run saw the whole conversation before it: the last request carried all earlier turns.
    let longest = server
        .requests()
        .iter()
        .map(|r| r.body["messages"].as_array().map_or(0, Vec::len))
        .max();
    assert_eq!(longest, Some(9));
    store.check_integrity().expect("intact");
}

//! `tandem sessions list`, `search` and `repair` over sessions stored by real `tandem -p` runs: text and JSON
//! output, the folder filter, and a query with no words.

use serde_json::Value;
use tandem_engine::testing::{FakeServer, Script, ScriptedTurn};

use super::commands::{Output, project, run, tandem};

/// Stores one session in `dir` through `tandem -p`: the prompt and the answer given.
async fn stored_run(home: &std::path::Path, dir: &std::path::Path, prompt: &str, answer: &str) {
    let server = FakeServer::start(Script::turns([ScriptedTurn::text(answer)]))
        .await
        .expect("server");
    let mut cmd = tandem(Some(&server.url()), home);
    cmd.current_dir(dir).args(["-p", prompt]);
    let out = run(cmd).await;
    assert_eq!(out.code, 0, "{}", out.stderr);
}

async fn sessions(home: &std::path::Path, args: &[&str]) -> Output {
    let mut cmd = tandem(None, home);
    cmd.arg("sessions").args(args);
    run(cmd).await
}

fn json(out: &Output) -> Value {
    assert_eq!(out.code, 0, "{}", out.stderr);
    serde_json::from_str(out.stdout.trim()).expect("one JSON object")
}

#[tokio::test]
async fn stored_sessions_are_listed_and_searched_as_text_and_json() {
    let dir = project();
    let other = project();
    let home = tempfile::tempdir().expect("home");
    stored_run(
        home.path(),
        dir.path(),
        "Explain the quokka migration",
        "The quokka table moves to the new schema in two steps.",
    )
    .await;
    stored_run(
        home.path(),
        other.path(),
        "Unrelated work",
        "Nothing about marsupials.",
    )
    .await;
    let folder = std::fs::canonicalize(dir.path()).expect("folder");

    // Search, as JSON: each hit with its session, folder, title, event, kind and a marked snippet.
    let found = json(&sessions(home.path(), &["search", "quokka", "--json"]).await);
    assert_eq!(found["query"], "quokka");
    let hits = found["hits"].as_array().expect("hits");
    assert_eq!(hits.len(), 2, "{found}");
    let kinds: Vec<&str> = hits
        .iter()
        .map(|h| h["kind"].as_str().expect("kind"))
        .collect();
    assert!(
        kinds.contains(&"prompt") && kinds.contains(&"answer"),
        "{kinds:?}"
    );
    for hit in hits {
        assert_eq!(hit["folder"], folder.to_string_lossy().as_ref());
        assert_eq!(hit["title"], "Explain the quokka migration");
        assert!(hit["seq"].as_u64().is_some(), "{hit}");
        let marked: Vec<&str> = hit["snippet"]
            .as_array()
            .expect("snippet")
            .iter()
            .filter(|p| p["match"] == true)
            .map(|p| p["text"].as_str().expect("text"))
            .collect();
        assert_eq!(marked, vec!["quokka"], "{hit}");
    }
    let session_id = hits[0]["session_id"].as_str().expect("id").to_string();

    // As text: where, then the snippet with the match in brackets.
    let text = sessions(home.path(), &["search", "quokka"]).await;
    assert_eq!(text.code, 0, "{}", text.stderr);
    assert!(text.stdout.contains(&session_id), "{}", text.stdout);
    assert!(
        text.stdout.contains("Explain the [quokka] migration"),
        "{}",
        text.stdout
    );

    // The folder filter.
    let elsewhere = json(
        &sessions(
            home.path(),
            &[
                "search",
                "quokka",
                "--json",
                "--folder",
                &other.path().to_string_lossy(),
            ],
        )
        .await,
    );
    assert_eq!(elsewhere["hits"].as_array().map(Vec::len), Some(0));
    let none = sessions(home.path(), &["search", "wallaby"]).await;
    assert_eq!(none.code, 0);
    assert!(
        none.stdout.is_empty() && none.stderr.contains("nothing matches"),
        "{}",
        none.stderr
    );

    // A query with no words is refused, saying why.
    let bad = sessions(home.path(), &["search", "* - \""]).await;
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("no words"), "{}", bad.stderr);

    // List: every folder's sessions, or one folder's.
    let all = json(&sessions(home.path(), &["list", "--json"]).await);
    assert_eq!(all["sessions"].as_array().map(Vec::len), Some(2), "{all}");
    let one = json(
        &sessions(
            home.path(),
            &["list", "--json", "--folder", &dir.path().to_string_lossy()],
        )
        .await,
    );
    let rows = one["sessions"].as_array().expect("sessions");
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["session_id"], session_id.as_str());
    assert_eq!(rows[0]["title"], "Explain the quokka migration");
    assert_eq!(rows[0]["message_count"], 2);
    let listed = sessions(home.path(), &["list"]).await;
    assert_eq!(listed.code, 0, "{}", listed.stderr);
    assert_eq!(listed.stdout.lines().count(), 2, "{}", listed.stdout);
    assert!(
        listed.stdout.lines().any(|l| l.starts_with(&session_id)
            && l.contains("Explain the quokka migration")
            && l.contains("2 messages")),
        "{}",
        listed.stdout
    );
}

#[tokio::test]
async fn repair_makes_the_search_index_again_from_the_stored_events() {
    let dir = project();
    let home = tempfile::tempdir().expect("home");
    stored_run(
        home.path(),
        dir.path(),
        "Count the numbats",
        "There are eleven numbats.",
    )
    .await;
    let db = home.path().join(".local/share/tandem/sessions.db");
    assert!(db.is_file(), "the store is in the data folder");
    let before = json(&sessions(home.path(), &["search", "numbats", "--json"]).await);
    assert_eq!(before["hits"].as_array().map(Vec::len), Some(2), "{before}");
    // The documents lost behind the index's back: the search misses the session.
    let raw = rusqlite::Connection::open(&db).expect("raw");
    raw.execute_batch("DELETE FROM search_docs")
        .expect("tamper");
    drop(raw);
    let missing = json(&sessions(home.path(), &["search", "numbats", "--json"]).await);
    assert_eq!(
        missing["hits"].as_array().map(Vec::len),
        Some(0),
        "{missing}"
    );
    let repaired = sessions(home.path(), &["repair"]).await;
    assert_eq!(repaired.code, 0, "{}", repaired.stderr);
    assert!(
        repaired.stdout.contains("sound") && repaired.stdout.contains("1 session "),
        "{}",
        repaired.stdout
    );
    let found = json(&sessions(home.path(), &["search", "numbats", "--json"]).await);
    assert_eq!(found["hits"].as_array().map(Vec::len), Some(2), "{found}");
}

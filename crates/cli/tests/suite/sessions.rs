//! `tandem sessions list`, `search` and `repair` over sessions stored by real `tandem -p` runs: text and JSON
//! output, the folder filter, and a query with no words. `tandem sessions export` and `import`: the reference
//! agent's transcripts imported from its folder or as files (once, bad lines named), a real run exported in every
//! format and imported into another store.

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

/// The reference-format transcripts the engine's tests import, copied as the reference agent keeps them:
/// `<home>/.claude/projects/<folder>/<session>.jsonl` (the sub-agents' files beside their session).
fn reference_projects(home: &std::path::Path) -> std::path::PathBuf {
    let corpus =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../engine/tests/corpus/claude_code");
    let project = home.join(".claude/projects/-home-ana-src-quokka");
    copy_dir(&corpus, &project);
    project
}

fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read dir") {
        let path = entry.expect("entry").path();
        let target = to.join(path.file_name().expect("name"));
        if path.is_dir() {
            copy_dir(&path, &target);
        } else {
            std::fs::copy(&path, &target).expect("copy");
        }
    }
}

#[tokio::test]
async fn reference_transcripts_are_imported_once_with_bad_lines_named() {
    let home = tempfile::tempdir().expect("home");
    let project = reference_projects(home.path());

    // Everything under ~/.claude/projects: four sessions; the damaged file's first bad line is named.
    let first = sessions(home.path(), &["import", "--claude-code"]).await;
    assert_eq!(first.code, 1, "a file had bad lines: {}", first.stderr);
    let imported: Vec<&str> = first
        .stdout
        .lines()
        .filter(|l| l.starts_with("imported"))
        .collect();
    assert_eq!(imported.len(), 4, "{}", first.stdout);
    assert!(
        imported
            .iter()
            .any(|l| l.contains("4f35e220-c435-4cf7-b9b9-f40426042847")
                && l.contains("Quokka table migration")
                && l.contains("8 messages")),
        "{}",
        first.stdout
    );
    let damaged = project.join("damaged.jsonl");
    assert!(
        first
            .stderr
            .contains(&format!("{}:3: not JSON", damaged.display())),
        "{}",
        first.stderr
    );
    assert!(
        first.stderr.contains("and 1 more bad lines"),
        "{}",
        first.stderr
    );

    // Again: nothing is stored twice.
    let again = sessions(
        home.path(),
        &[
            "import",
            "--claude-code",
            &home.path().join(".claude/projects").to_string_lossy(),
        ],
    )
    .await;
    assert_eq!(
        again
            .stdout
            .lines()
            .filter(|l| l.starts_with("skipped"))
            .count(),
        4,
        "{}",
        again.stdout
    );
    assert!(
        !again.stdout.lines().any(|l| l.starts_with("imported")),
        "{}",
        again.stdout
    );
    let file = project.join("tool_use.jsonl");
    let one = sessions(home.path(), &["import", &file.to_string_lossy()]).await;
    assert_eq!(one.code, 0, "{}", one.stderr);
    assert!(
        one.stdout.starts_with("skipped   4f35e220"),
        "{}",
        one.stdout
    );
    let all = json(&sessions(home.path(), &["list", "--json"]).await);
    assert_eq!(all["sessions"].as_array().map(Vec::len), Some(4), "{all}");

    // Imported sessions are searched like any other, sub-agents included.
    let found = json(&sessions(home.path(), &["search", "open_burrow", "--json"]).await);
    let kinds: Vec<&str> = found["hits"]
        .as_array()
        .expect("hits")
        .iter()
        .map(|h| h["kind"].as_str().expect("kind"))
        .collect();
    assert!(kinds.contains(&"sub_agent"), "{found}");

    // A file that is missing, or holds no conversation, is not imported, and says why.
    let empty = home.path().join("empty.jsonl");
    std::fs::write(&empty, "{\"type\":\"summary\",\"summary\":\"nothing\"}\n").expect("write");
    let bad = sessions(
        home.path(),
        &["import", &empty.to_string_lossy(), "/nonexistent/x.jsonl"],
    )
    .await;
    assert_eq!(bad.code, 1);
    assert!(
        bad.stderr.contains("holds no conversation"),
        "{}",
        bad.stderr
    );
    assert!(
        bad.stderr.contains("/nonexistent/x.jsonl"),
        "{}",
        bad.stderr
    );
    let missing_dir = sessions(home.path(), &["import", "--claude-code", "/nonexistent"]).await;
    assert_eq!(missing_dir.code, 2, "{}", missing_dir.stderr);
}

#[tokio::test]
async fn a_real_session_is_exported_in_every_format_and_imported_elsewhere() {
    let dir = project();
    let home = tempfile::tempdir().expect("home");
    stored_run(
        home.path(),
        dir.path(),
        "Explain the <quokka> & wombat migration",
        "The quokka table moves first.",
    )
    .await;
    let all = json(&sessions(home.path(), &["list", "--json"]).await);
    let id = all["sessions"][0]["session_id"]
        .as_str()
        .expect("id")
        .to_string();

    let markdown = sessions(home.path(), &["export", &id, "--format", "md"]).await;
    assert_eq!(markdown.code, 0, "{}", markdown.stderr);
    assert!(
        markdown
            .stdout
            .starts_with("# Explain the <quokka> & wombat migration"),
        "{}",
        markdown.stdout
    );
    assert!(
        markdown
            .stdout
            .contains("## Answer\n\nThe quokka table moves first."),
        "{}",
        markdown.stdout
    );

    let out = tempfile::tempdir().expect("out");
    let page = out.path().join("session.html");
    let html = sessions(
        home.path(),
        &[
            "export",
            &id,
            "--format",
            "html",
            "-o",
            &page.to_string_lossy(),
        ],
    )
    .await;
    assert_eq!(html.code, 0, "{}", html.stderr);
    assert!(html.stdout.is_empty());
    let page = std::fs::read_to_string(&page).expect("the page");
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(
        page.contains("Explain the &lt;quokka&gt; &amp; wombat migration"),
        "{page}"
    );
    assert_eq!(
        std::fs::read_dir(out.path()).expect("dir").count(),
        1,
        "no temporary file is left"
    );

    let lines = out.path().join("session.jsonl");
    let jsonl = sessions(
        home.path(),
        &[
            "export",
            &id,
            "--format",
            "jsonl",
            "-o",
            &lines.to_string_lossy(),
        ],
    )
    .await;
    assert_eq!(jsonl.code, 0, "{}", jsonl.stderr);
    let elsewhere = tempfile::tempdir().expect("another home");
    let imported = sessions(elsewhere.path(), &["import", &lines.to_string_lossy()]).await;
    assert_eq!(imported.code, 0, "{}", imported.stderr);
    assert!(
        imported.stdout.starts_with(&format!("imported  {id}")),
        "{}",
        imported.stdout
    );
    let copy = json(&sessions(elsewhere.path(), &["list", "--json"]).await);
    assert_eq!(
        copy["sessions"][0]["message_count"],
        all["sessions"][0]["message_count"]
    );
    assert_eq!(copy["sessions"][0]["title"], all["sessions"][0]["title"]);
    assert_eq!(copy["sessions"][0]["folder"], all["sessions"][0]["folder"]);
    let found = json(&sessions(elsewhere.path(), &["search", "wombat", "--json"]).await);
    assert_eq!(found["hits"][0]["session_id"], id.as_str(), "{found}");

    let unknown = sessions(
        home.path(),
        &["export", "no-such-session", "--format", "md"],
    )
    .await;
    assert_eq!(unknown.code, 2);
    assert!(
        unknown
            .stderr
            .contains("no session with id no-such-session"),
        "{}",
        unknown.stderr
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

#[tokio::test]
async fn the_list_shows_how_sessions_are_organised_and_filters_by_tag_and_archive() {
    let dir = project();
    let home = tempfile::tempdir().expect("home");
    for prompt in ["First piece", "Second piece", "Third piece"] {
        stored_run(home.path(), dir.path(), prompt, "Done.").await;
    }
    let listed = json(&sessions(home.path(), &["list", "--json"]).await);
    let id_of = |title: &str| -> String {
        listed["sessions"]
            .as_array()
            .expect("sessions")
            .iter()
            .find(|s| s["title"] == title)
            .and_then(|s| s["session_id"].as_str())
            .expect("listed")
            .to_string()
    };
    let (first, second, third) = (
        id_of("First piece"),
        id_of("Second piece"),
        id_of("Third piece"),
    );
    {
        // Organised as the window would, through the same store.
        let store = tandem_engine::store::SessionStore::open(
            &home.path().join(".local/share/tandem/sessions.db"),
        )
        .expect("store");
        let work = store
            .create_collection(dir.path(), "Work", None)
            .expect("Work");
        let bugs = store
            .create_collection(dir.path(), "Bugs", Some(work.id))
            .expect("Bugs");
        store.move_session(&first, Some(bugs.id)).expect("move");
        store.set_pinned(&first, true).expect("pin");
        store
            .set_tags(&first, &["Urgent".to_string(), "ui".to_string()])
            .expect("tags");
        store.set_tags(&second, &["ui".to_string()]).expect("tags");
        store.set_archived(&third, true).expect("archive");
    }

    let listed = json(&sessions(home.path(), &["list", "--json"]).await);
    let rows = listed["sessions"].as_array().expect("sessions");
    let ids: Vec<&str> = rows
        .iter()
        .map(|s| s["session_id"].as_str().expect("id"))
        .collect();
    assert_eq!(
        ids,
        [first.as_str(), second.as_str()],
        "pinned first, archived left out"
    );
    assert_eq!(rows[0]["pinned"], true);
    assert_eq!(rows[0]["collection"], "Work/Bugs");
    assert_eq!(rows[0]["tags"], serde_json::json!(["ui", "urgent"]));
    assert_eq!(rows[1]["pinned"], false);
    assert_eq!(rows[1]["collection"], Value::Null);

    // (arguments, the sessions listed)
    let table: [(&[&str], Vec<&str>); 4] = [
        (&["--tag", "UI"], vec![first.as_str(), second.as_str()]),
        (&["--tag", "urgent"], vec![first.as_str()]),
        (&["--archived"], vec![third.as_str()]),
        (&["--archived", "--tag", "ui"], vec![]),
    ];
    for (args, expected) in table {
        let mut all = vec!["list", "--json"];
        all.extend_from_slice(args);
        let out = json(&sessions(home.path(), &all).await);
        let got: Vec<&str> = out["sessions"]
            .as_array()
            .expect("sessions")
            .iter()
            .map(|s| s["session_id"].as_str().expect("id"))
            .collect();
        assert_eq!(got, expected, "{args:?}");
        if args.contains(&"--archived") {
            assert!(
                out["sessions"]
                    .as_array()
                    .expect("rows")
                    .iter()
                    .all(|s| s["archived"] == true)
            );
        }
    }

    let text = sessions(home.path(), &["list"]).await;
    assert_eq!(text.code, 0, "{}", text.stderr);
    let line = text
        .stdout
        .lines()
        .find(|l| l.starts_with(&first))
        .expect("the first session's line");
    assert!(line.contains("First piece"), "{line}");
    assert!(
        line.contains("pinned") && line.contains("in Work/Bugs"),
        "{line}"
    );
    assert!(line.contains("#ui #urgent"), "{line}");
    assert!(
        !text.stdout.contains(&third),
        "archived sessions are left out: {}",
        text.stdout
    );
}

//! Full-text search over the stored sessions: ranking, the index kept with every write, files of the schema before
//! the index, a damaged index rebuilt, and queries a person may type that FTS5 would take for syntax.

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::json;
use tandem_engine::store::{MIGRATIONS, QueryError, SearchHit, SessionStore, StoreError, TextKind};
use tandem_protocol::{RenderHints, SessionEvent, ToolKind, ToolOutcome, TurnStopReason};

use super::new_session;

fn open(path: &Path) -> SessionStore {
    SessionStore::open(path).expect("open")
}

/// Writes a turn to session `id` of `folder` through the store's write path: the prompt, the answer streamed in
/// `chunks`, a tool call with `tool_input` and `tool_result`, the end. Returns the next seq.
struct Turn<'a> {
    prompt: &'a str,
    answer: &'a [&'a str],
    tool_input: Option<&'a str>,
    tool_result: Option<&'a str>,
}

fn write_turn(store: &SessionStore, id: &str, mut seq: u64, turn: &Turn<'_>) -> u64 {
    let mut emit = |event: SessionEvent| {
        store.record_event(id, seq, event);
        seq += 1;
    };
    emit(SessionEvent::TurnStarted {
        prompt: turn.prompt.into(),
        prompt_id: None,
    });
    for chunk in turn.answer {
        emit(SessionEvent::TextDelta {
            text: (*chunk).into(),
        });
    }
    if let Some(input) = turn.tool_input {
        let tool_use_id = format!("call-{}", turn.prompt.len());
        emit(SessionEvent::ToolCallStarted {
            tool_use_id: tool_use_id.clone(),
            name: "Bash".into(),
        });
        emit(SessionEvent::ToolCallInput {
            tool_use_id: tool_use_id.clone(),
            name: "Bash".into(),
            input: json!({"command": input}),
            hints: RenderHints {
                kind: ToolKind::Other,
                title: "Bash".into(),
                collapsible: false,
            },
        });
        emit(SessionEvent::ToolCallResult {
            tool_use_id,
            outcome: ToolOutcome::Success,
            content: turn.tool_result.unwrap_or("").into(),
            detail: None,
        });
    }
    emit(SessionEvent::TurnEnded {
        stop_reason: TurnStopReason::EndTurn,
    });
    seq
}

fn session_with(store: &SessionStore, id: &str, folder: &Path, turn: &Turn<'_>) {
    store
        .create_session(&new_session(id, folder))
        .expect("create");
    write_turn(store, id, 0, turn);
}

fn sessions_of(hits: &[SearchHit]) -> Vec<&str> {
    hits.iter().map(|h| h.session_id.as_str()).collect()
}

fn matched(hit: &SearchHit) -> Vec<String> {
    hit.snippet
        .iter()
        .filter(|p| p.matched)
        .map(|p| p.text.to_lowercase())
        .collect()
}

const FILLER: &str =
    "the build finished and the tests passed on the second machine after the cache was warm";

#[test]
fn a_session_that_says_it_in_the_prompt_and_often_ranks_above_one_that_says_it_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = open(&dir.path().join("sessions.db"));
    session_with(
        &store,
        "once",
        dir.path(),
        &Turn {
            prompt: "Look at the build",
            answer: &[FILLER, " one flaky zebrafish test ", FILLER],
            tool_input: None,
            tool_result: None,
        },
    );
    session_with(
        &store,
        "often",
        dir.path(),
        &Turn {
            prompt: "Why does the zebrafish fixture fail?",
            answer: &[
                "The zebrafish fixture loads zebrafish data; ",
                "zebrafish ids clash.",
            ],
            tool_input: None,
            tool_result: None,
        },
    );
    let hits = store.search("zebrafish", None, 10).expect("search");
    assert_eq!(hits[0].session_id, "often", "{hits:#?}");
    assert!(sessions_of(&hits).contains(&"once"), "{hits:#?}");
    let best_of_once = hits.iter().position(|h| h.session_id == "once");
    let all_of_often: Vec<usize> = (0..hits.len())
        .filter(|&i| hits[i].session_id == "often")
        .collect();
    assert!(
        all_of_often.iter().all(|&i| Some(i) < best_of_once),
        "{hits:#?}"
    );
    // The hit names the session, its title and the event to scroll to, with the match marked.
    let prompt = hits
        .iter()
        .find(|h| h.kind == TextKind::Prompt)
        .expect("the prompt is a hit");
    assert_eq!(prompt.title, "Why does the zebrafish fixture fail?");
    assert_eq!(prompt.seq, 0);
    assert_eq!(matched(prompt), vec!["zebrafish"]);
    let answer = hits
        .iter()
        .find(|h| h.session_id == "often" && h.kind == TextKind::Answer)
        .expect("the answer is a hit");
    assert_eq!(answer.seq, 1, "an answer starts at its first delta");
    assert_eq!(
        answer.folder,
        std::fs::canonicalize(dir.path()).expect("canonical")
    );
}

#[test]
fn everything_said_is_found_with_its_kind_and_a_deleted_session_is_gone() {
    let dir = tempfile::tempdir().expect("tempdir");
    let other = tempfile::tempdir().expect("other folder");
    let store = open(&dir.path().join("sessions.db"));
    store
        .create_session(&new_session("s", dir.path()))
        .expect("create");
    // The answer's words are cut across deltas, as a stream cuts them.
    let seq = write_turn(
        &store,
        "s",
        0,
        &Turn {
            prompt: "please refactor the quux module",
            answer: &["I will run the hel", "icopter tests first."],
            tool_input: Some("cargo test --package wobbleflange"),
            tool_result: Some("test result: ok. 42 passed; gribble finished"),
        },
    );
    // A sub-agent's conversation streams wrapped in the session's events.
    let sub = |event| SessionEvent::SubAgent {
        parent_tool_use_id: "agent-call".into(),
        agent_id: "a1".into(),
        event: Box::new(event),
    };
    store.record_event(
        "s",
        seq,
        sub(SessionEvent::TextDelta {
            text: "the sub-agent found snorkelwort".into(),
        }),
    );
    store.record_event(
        "s",
        seq + 1,
        sub(SessionEvent::TurnEnded {
            stop_reason: TurnStopReason::EndTurn,
        }),
    );
    session_with(
        &store,
        "elsewhere",
        other.path(),
        &Turn {
            prompt: "quux in another folder",
            answer: &["ok"],
            tool_input: None,
            tool_result: None,
        },
    );

    let kind_of = |query: &str| -> Vec<TextKind> {
        store
            .search(query, Some(dir.path()), 10)
            .expect("search")
            .iter()
            .map(|h| h.kind)
            .collect()
    };
    assert_eq!(kind_of("quux"), vec![TextKind::Prompt]);
    assert_eq!(kind_of("helicopter"), vec![TextKind::Answer]);
    assert_eq!(kind_of("wobbleflange"), vec![TextKind::ToolInput]);
    assert_eq!(kind_of("gribble"), vec![TextKind::ToolResult]);
    let sub_hits = store.search("snorkelwort", None, 10).expect("search");
    assert_eq!(sub_hits.len(), 1);
    assert_eq!(sub_hits[0].kind, TextKind::SubAgent);
    assert_eq!(sub_hits[0].agent_id.as_deref(), Some("a1"));
    assert_eq!(sub_hits[0].seq, seq);
    // Without the folder filter both folders' sessions match.
    let everywhere = store.search("quux", None, 10).expect("search");
    let mut ids = sessions_of(&everywhere);
    ids.sort();
    assert_eq!(ids, vec!["elsewhere", "s"]);
    // Phrases match words in order; a trailing * matches the start of words.
    assert_eq!(
        store
            .search("\"refactor the quux\"", None, 10)
            .expect("phrase")
            .len(),
        1
    );
    assert!(
        store
            .search("\"quux the refactor\"", None, 10)
            .expect("phrase")
            .is_empty()
    );
    assert_eq!(store.search("wobble*", None, 10).expect("prefix").len(), 1);

    store.delete_session("s").expect("delete");
    for query in ["helicopter", "wobbleflange", "gribble", "snorkelwort"] {
        assert!(
            store.search(query, None, 10).expect("search").is_empty(),
            "{query} is gone with its session"
        );
    }
    assert_eq!(
        sessions_of(&store.search("quux", None, 10).expect("search")),
        vec!["elsewhere"]
    );
    store.check_integrity().expect("the file is sound");
}

#[test]
fn an_answer_cut_off_mid_stream_is_found_once_the_store_opens_again() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("sessions.db");
    {
        let store = open(&path);
        store
            .create_session(&new_session("s", dir.path()))
            .expect("create");
        store.record_event(
            "s",
            0,
            SessionEvent::TurnStarted {
                prompt: "go".into(),
                prompt_id: None,
            },
        );
        store.record_event(
            "s",
            1,
            SessionEvent::TextDelta {
                text: "half an answer about marmalade".into(),
            },
        );
        store.flush().expect("flush");
        // Still streaming: not a document yet.
        assert!(
            store
                .search("marmalade", None, 10)
                .expect("search")
                .is_empty()
        );
    }
    // The process died a while ago.
    let conn = rusqlite::Connection::open(&path).expect("raw");
    conn.execute("UPDATE events SET created_at = 0", [])
        .expect("age");
    drop(conn);
    let store = open(&path);
    let hits = store.search("marmalade", None, 10).expect("search");
    assert_eq!(hits.len(), 1);
    assert_eq!((hits[0].kind, hits[0].seq), (TextKind::Answer, 1));
}

/// A store of the schema before the search index (version 3), with `n` sessions of one turn each.
fn old_store(path: &Path, folder: &Path, n: usize) {
    let old = SessionStore::open_with_migrations(path, &MIGRATIONS[..3]).expect("v3");
    assert_eq!(old.schema_version().expect("version"), 3);
    for i in 0..n {
        session_with(
            &old,
            &format!("old-{i}"),
            folder,
            &Turn {
                prompt: &format!("old prompt number{i} about lighthouses"),
                answer: &["the keeper ", "trimmed the wick"],
                tool_input: Some("ls /lamp"),
                tool_result: Some("lens.txt"),
            },
        );
    }
    old.flush().expect("flush");
    assert!(matches!(
        old.search("lighthouses", None, 10),
        Err(StoreError::NoSearchIndex)
    ));
}

#[test]
fn a_store_of_the_previous_schema_gets_its_sessions_indexed_on_first_open() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("sessions.db");
    old_store(&path, dir.path(), 3);
    let store = open(&path);
    assert_eq!(
        store.schema_version().expect("version"),
        MIGRATIONS.len() as i64
    );
    // A search waits for what is still to index.
    let hits = store.search("lighthouses", None, 10).expect("search");
    assert_eq!(hits.len(), 3);
    assert!(hits.iter().all(|h| h.kind == TextKind::Prompt));
    assert_eq!(store.sessions_to_index().expect("pending"), 0);
    assert_eq!(store.search("wick", None, 10).expect("answer").len(), 3);
    assert_eq!(store.search("lens", None, 10).expect("result").len(), 3);
    // New writes to an old session are indexed like any.
    write_turn(
        &store,
        "old-1",
        100,
        &Turn {
            prompt: "and the foghorn?",
            answer: &["loud"],
            tool_input: None,
            tool_result: None,
        },
    );
    assert_eq!(
        sessions_of(&store.search("foghorn", None, 10).expect("new")),
        vec!["old-1"]
    );
    store.check_integrity().expect("the file is sound");
}

#[test]
fn the_writer_indexes_an_old_store_in_steps_while_it_has_nothing_else_to_do() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("sessions.db");
    old_store(&path, dir.path(), 120);
    let store = open(&path);
    // Writes go on while it indexes.
    store
        .create_session(&new_session("new", dir.path()))
        .expect("a write is not held up");
    let deadline = Instant::now() + Duration::from_secs(120);
    while store.sessions_to_index().expect("pending") > 0 {
        assert!(
            Instant::now() < deadline,
            "the old sessions were never indexed"
        );
        std::thread::yield_now();
    }
    assert_eq!(
        store
            .search("lighthouses", None, 200)
            .expect("search")
            .len(),
        120
    );
    assert_eq!(store.search("number77", None, 10).expect("search").len(), 1);
}

fn indexed_store(path: &Path, folder: &Path) -> SessionStore {
    let store = open(path);
    for i in 0..20 {
        session_with(
            &store,
            &format!("s{i}"),
            folder,
            &Turn {
                prompt: &format!("prompt {i} on tangerines"),
                answer: &["peel them carefully"],
                tool_input: None,
                tool_result: None,
            },
        );
    }
    store.flush().expect("flush");
    store
}

#[test]
fn a_corrupt_index_is_rebuilt_by_the_search_that_finds_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("sessions.db");
    let store = indexed_store(&path, dir.path());
    let raw = rusqlite::Connection::open(&path).expect("raw");
    raw.execute(
        "UPDATE search_index_data SET block = x'deadbeefdeadbeef' WHERE id > 1",
        [],
    )
    .expect("corrupt");
    let hits = store
        .search("tangerines", None, 50)
        .expect("search after repair");
    assert_eq!(hits.len(), 20);
    // Writes that meet a damaged index are stored, and the index follows them.
    raw.execute(
        "UPDATE search_index_data SET block = x'0badf00d0badf00d0badf00d' WHERE id > 1",
        [],
    )
    .expect("corrupt again");
    session_with(
        &store,
        "later",
        dir.path(),
        &Turn {
            prompt: "tangerines again",
            answer: &["and clementines"],
            tool_input: None,
            tool_result: None,
        },
    );
    store.flush().expect("the write is stored");
    let hits = store.search("tangerines", None, 50).expect("search");
    assert_eq!(hits.len(), 21, "{hits:#?}");
    assert_eq!(
        store.search("clementines", None, 50).expect("search").len(),
        1
    );
    store.check_integrity().expect("the file is sound");
}

#[test]
fn reindexing_makes_the_documents_again_from_the_stored_events() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("sessions.db");
    let store = indexed_store(&path, dir.path());
    assert_eq!(
        store.search("tangerines", None, 50).expect("search").len(),
        20
    );
    // Documents lost and one rewritten behind the index's back, while the state says all is indexed.
    let raw = rusqlite::Connection::open(&path).expect("raw");
    raw.execute_batch(
        "DELETE FROM search_docs WHERE session_id IN ('s1', 's2'); \
         UPDATE search_docs SET body = 'forged words' WHERE session_id = 's3' AND kind = 'prompt';",
    )
    .expect("tamper");
    // s1 and s2 are gone from the search, and s3's prompt no longer says it.
    assert_eq!(
        store.search("tangerines", None, 50).expect("search").len(),
        17
    );
    store.reindex_search().expect("reindex");
    assert_eq!(store.sessions_to_index().expect("behind"), 0);
    assert_eq!(
        store.search("tangerines", None, 50).expect("search").len(),
        20
    );
    assert!(store.search("forged", None, 50).expect("search").is_empty());
    store.check_integrity().expect("the file is sound");
    // The index keeps following new writes.
    session_with(
        &store,
        "later",
        dir.path(),
        &Turn {
            prompt: "tangerines again",
            answer: &["and clementines"],
            tool_input: None,
            tool_result: None,
        },
    );
    assert_eq!(
        store.search("clementines", None, 50).expect("search").len(),
        1
    );
}

#[test]
fn dropped_index_tables_are_made_again() {
    // Each part of the index dropped while no store had the file open, then while one had.
    for table in [
        "search_index_data",
        "search_index_idx",
        "search_index_config",
        "search_index",
    ] {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("sessions.db");
        drop(indexed_store(&path, dir.path()));
        let raw = rusqlite::Connection::open(&path).expect("raw");
        raw.execute_batch(&format!("DROP TABLE {table}"))
            .expect("drop");
        let store = open(&path);
        assert_eq!(
            store.search("tangerines", None, 50).expect("search").len(),
            20,
            "{table} dropped before opening"
        );
        raw.execute_batch(&format!("DROP TABLE {table}"))
            .expect("drop again");
        assert_eq!(
            store.search("tangerines", None, 50).expect("search").len(),
            20,
            "{table} dropped while open"
        );
        store.check_integrity().expect("the file is sound");
    }
}

#[test]
fn queries_a_person_may_type_give_results_or_a_clear_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = open(&dir.path().join("sessions.db"));
    session_with(
        &store,
        "s",
        dir.path(),
        &Turn {
            prompt: "NEAR the \"quoted\" body: text AND more OR less - minus * star",
            answer: &["col:value and NOT this"],
            tool_input: Some("rm -rf ./build"),
            tool_result: None,
        },
    );
    let long = "word ".repeat(5_000);
    let hostile: Vec<&str> = vec![
        "\"unbalanced",
        "unbalanced\"",
        "\"",
        "\"\"",
        "NEAR(",
        "NEAR(the body",
        "*",
        "-",
        "- minus",
        "body:text",
        "col:value",
        "{body}: x",
        "AND",
        "OR less",
        "NOT this",
        "a AND",
        "((",
        ")",
        "^",
        "+",
        "'; DROP TABLE sessions; --",
        "\0",
        "émoji 🎉",
        "-rf",
        "./build",
        &long,
    ];
    for query in hostile {
        match store.search(query, None, 10) {
            Ok(_) => {}
            Err(StoreError::BadQuery(
                QueryError::Empty | QueryError::TooLong(_) | QueryError::TooManyTerms(_),
            )) => {}
            Err(other) => panic!("{query:?} gave {other}"),
        }
    }
    // Operators and punctuation are words like any other.
    for query in [
        "NEAR(",
        "AND",
        "\"quoted\" body",
        "col:value",
        "- minus",
        "-rf",
        "NOT this",
    ] {
        assert!(
            !store.search(query, None, 10).expect(query).is_empty(),
            "{query}"
        );
    }
    assert!(matches!(
        store.search(&long, None, 10),
        Err(StoreError::BadQuery(QueryError::TooLong(_)))
    ));
    assert!(matches!(
        store.search("* - \"", None, 10),
        Err(StoreError::BadQuery(QueryError::Empty))
    ));
    assert!(
        store
            .search("sessions", None, 10)
            .expect("search")
            .is_empty()
    );
    assert_eq!(store.list_sessions(dir.path()).expect("list").len(), 1);
}

#[test]
fn a_second_store_on_the_file_finds_what_the_first_wrote_and_did_not_index() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("sessions.db");
    let first = open(&path);
    session_with(
        &first,
        "s",
        dir.path(),
        &Turn {
            prompt: "where is the quokka",
            answer: &["in the ", "burrow"],
            tool_input: None,
            tool_result: None,
        },
    );
    first.flush().expect("flush");
    // Another process (here: another store) searches while the first is still open.
    let second = open(&path);
    let hits = second.search("quokka", None, 10).expect("search");
    assert_eq!(sessions_of(&hits), vec!["s"]);
    assert_eq!(second.search("burrow", None, 10).expect("answer").len(), 1);
    // The first indexes the same events again later, which changes nothing.
    assert_eq!(first.search("quokka", None, 10).expect("search").len(), 1);
    assert_eq!(first.sessions_to_index().expect("behind"), 0);
    first.check_integrity().expect("the file is sound");
}

#[test]
fn a_word_in_more_texts_than_are_ranked_ranks_the_newest_of_them() {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = open(&dir.path().join("sessions.db"));
    // The oldest session says it most, but more than CANDIDATES newer texts say it too.
    session_with(
        &store,
        "oldest",
        dir.path(),
        &Turn {
            prompt: "common common common common",
            answer: &["common common common"],
            tool_input: None,
            tool_result: None,
        },
    );
    let sessions = tandem_engine::store::CANDIDATES / 2 + 10;
    for i in 0..sessions {
        session_with(
            &store,
            &format!("s{i:05}"),
            dir.path(),
            &Turn {
                prompt: &format!("a common prompt number {i} with some other words"),
                answer: &["a common answer with some other words and more of them"],
                tool_input: None,
                tool_result: None,
            },
        );
    }
    let hits = store.search("common", None, 20).expect("search");
    assert_eq!(hits.len(), 20);
    assert!(!sessions_of(&hits).contains(&"oldest"), "{hits:#?}");
    // Ranked among themselves: the shorter texts (the prompts) first, newest first among equals.
    assert_eq!(hits[0].session_id, format!("s{:05}", sessions - 1));
    assert_eq!(hits[0].kind, TextKind::Prompt);
    assert!(hits.iter().all(|h| h.kind == TextKind::Prompt), "{hits:#?}");
    // Once no more texts hold it than are ranked, every one is ranked: the oldest session comes first.
    for i in 0..12 {
        store.delete_session(&format!("s{i:05}")).expect("delete");
    }
    let hits = store.search("common", None, 20).expect("search");
    assert_eq!(hits[0].session_id, "oldest", "{hits:#?}");
}

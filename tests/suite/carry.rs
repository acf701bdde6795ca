//! Export and import as the window does them (without the native dialogs): the reference agent's transcripts
//! imported with a summary the window shows (where each session was held, the first bad line, importing twice
//! stores once, found by search at once), and a stored session exported to a file whole.

use std::path::{Path, PathBuf};

use tandem_app::carry;
use tandem_app::error::ErrorCode;
use tandem_engine::store::SessionStore;

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/engine/tests/corpus/claude_code")
}

/// A projects folder as the reference agent lays it out: one folder per project holding its transcripts.
fn projects_folder(root: &Path) -> PathBuf {
    let projects = root.join("projects");
    let project = projects.join("-home-me-shop");
    std::fs::create_dir_all(&project).expect("project folder");
    for name in ["tool_use.jsonl", "damaged.jsonl"] {
        std::fs::copy(corpus().join(name), project.join(name)).expect("copy a transcript");
    }
    projects
}

#[test]
fn an_import_sums_up_what_came_in_where_it_was_held_and_the_first_bad_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = SessionStore::open(&dir.path().join("sessions.db")).expect("store");
    let projects = projects_folder(dir.path());

    let first = carry::import_folder(&store, &projects).expect("import");
    assert_eq!(first.imported.len(), 2, "{first:?}");
    assert_eq!(first.already_there, 0);
    for session in &first.imported {
        assert!(
            !session.folder.is_empty(),
            "the folder it was held in: {session:?}"
        );
        assert!(session.messages > 0, "{session:?}");
        let record = store
            .session(&session.session_id)
            .expect("read")
            .expect("stored");
        assert_eq!(record.folder.display().to_string(), session.folder);
    }
    assert_eq!(first.problems.len(), 1, "{:?}", first.problems);
    assert!(
        first.problems[0].contains("damaged.jsonl:3"),
        "the first bad line is named: {:?}",
        first.problems
    );
    let hits = store.search("quokka", None, 10).expect("search");
    assert!(
        hits.iter().any(|hit| first
            .imported
            .iter()
            .any(|s| s.session_id == hit.session_id)),
        "what came in is searchable at once: {hits:?}"
    );

    let again = carry::import_folder(&store, &projects).expect("import again");
    assert!(again.imported.is_empty(), "{again:?}");
    assert_eq!(again.already_there, 2);

    let missing = carry::import_files(&store, &[dir.path().join("nowhere.jsonl")]);
    assert!(missing.imported.is_empty());
    assert!(
        missing.problems[0].contains("nowhere.jsonl"),
        "{:?}",
        missing.problems
    );

    let err =
        carry::import_folder(&store, &dir.path().join("no-such-folder")).expect_err("no folder");
    assert_eq!(err.code, ErrorCode::Carry);
}

#[test]
fn a_stored_session_exports_to_a_file_named_after_its_title() {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = SessionStore::open(&dir.path().join("sessions.db")).expect("store");
    let summary = carry::import_files(&store, &[corpus().join("tool_use.jsonl")]);
    let session = &summary.imported[0];

    for (name, extension) in [("md", "md"), ("html", "html"), ("jsonl", "jsonl")] {
        let format = carry::format_named(name).expect("a format");
        let (text, file_name) =
            carry::export_text(&store, &session.session_id, format).expect("export");
        assert!(file_name.ends_with(&format!(".{extension}")), "{file_name}");
        assert!(!file_name.contains('/'), "{file_name}");
        let path = dir.path().join(&file_name);
        carry::write_export(&path, &text).expect("write");
        assert_eq!(std::fs::read_to_string(&path).expect("read back"), text);
    }

    let unknown = carry::export_text(
        &store,
        "no-such-session",
        carry::format_named("md").expect("md"),
    )
    .expect_err("unknown");
    assert_eq!(unknown.code, ErrorCode::UnknownSession);
    let format = carry::format_named("pdf").expect_err("pdf");
    assert_eq!(format.code, ErrorCode::Carry);
    let unwritable = carry::write_export(&dir.path().join("no-such-dir/out.md"), "text")
        .expect_err("a folder that is not there");
    assert_eq!(unwritable.code, ErrorCode::Carry);
}

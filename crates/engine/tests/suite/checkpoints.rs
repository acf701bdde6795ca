//! Checkpoints: a sequence of edits over several prompts, then rewinds to before each prompt; changes made outside
//! Tandem stop an unforced rewind and are reported.

use std::fs;
use std::sync::Arc;

use serde_json::json;
use tandem_engine::checkpoint::CheckpointStore;
use tandem_engine::tool::FileStateStore;

use tandem_engine::testing::{TestRuntime, call};

struct Setup {
    _dir: tempfile::TempDir,
    root: std::path::PathBuf,
    store: Arc<CheckpointStore>,
    files: Arc<FileStateStore>,
    rt: tandem_engine::exec::ToolRuntime,
}

fn setup() -> Setup {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = fs::canonicalize(dir.path()).expect("canon").join("project");
    fs::create_dir_all(&root).expect("mkdir");
    let store = Arc::new(CheckpointStore::open(dir.path().join("store")).expect("store"));
    let files = Arc::new(FileStateStore::with_history(store.clone()));
    let rt = TestRuntime::new(&root).file_state(files.clone()).build();
    Setup {
        _dir: dir,
        root,
        store,
        files,
        rt,
    }
}

async fn ok(rt: &tandem_engine::exec::ToolRuntime, tool: &str, input: serde_json::Value) {
    let r = call(rt, tool, &input).await;
    assert!(r.ok, "{tool} failed: {}", r.text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rewinds_files_to_before_each_prompt() {
    let s = setup();
    let a = s.root.join("a.txt");
    fs::write(&a, "one\ntwo\n").expect("seed");

    s.store.begin_prompt("p1").expect("p1");
    ok(&s.rt, "Read", json!({"file_path": "a.txt"})).await;
    ok(
        &s.rt,
        "Edit",
        json!({"file_path": "a.txt", "old_string": "one", "new_string": "ONE"}),
    )
    .await;
    ok(
        &s.rt,
        "Edit",
        json!({"file_path": "a.txt", "old_string": "two", "new_string": "TWO"}),
    )
    .await;

    s.store.begin_prompt("p2").expect("p2");
    ok(
        &s.rt,
        "Write",
        json!({"file_path": "new/b.txt", "content": "bee\n"}),
    )
    .await;
    ok(
        &s.rt,
        "Edit",
        json!({"file_path": "a.txt", "old_string": "ONE", "new_string": "uno"}),
    )
    .await;

    s.store.begin_prompt("p3").expect("p3");
    ok(
        &s.rt,
        "Edit",
        json!({"file_path": "new/b.txt", "old_string": "bee", "new_string": "BEE"}),
    )
    .await;
    assert_eq!(fs::read_to_string(&a).expect("a"), "uno\nTWO\n");

    let cps = s.store.checkpoints();
    assert_eq!(
        cps.iter().map(|c| c.prompt_id.as_str()).collect::<Vec<_>>(),
        ["p1", "p2", "p3"]
    );

    let report = s
        .store
        .rewind_files(&s.files, "p3", false)
        .expect("rewind p3");
    assert!(report.applied && report.conflicts.is_empty());
    assert_eq!(
        fs::read_to_string(s.root.join("new/b.txt")).expect("b"),
        "bee\n"
    );

    let report = s
        .store
        .rewind_files(&s.files, "p2", false)
        .expect("rewind p2");
    assert!(report.applied);
    assert!(
        !s.root.join("new/b.txt").exists(),
        "a file created after the checkpoint is removed"
    );
    assert_eq!(fs::read_to_string(&a).expect("a"), "ONE\nTWO\n");

    // The read state was forgotten: an edit now needs a new Read.
    let r = call(
        &s.rt,
        "Edit",
        &json!({"file_path": "a.txt", "old_string": "ONE", "new_string": "x"}),
    )
    .await;
    assert!(!r.ok && r.text.contains("has not been read"), "{}", r.text);

    let report = s
        .store
        .rewind_files(&s.files, "p1", false)
        .expect("rewind p1");
    assert!(report.applied);
    assert_eq!(fs::read_to_string(&a).expect("a"), "one\ntwo\n");
    assert!(s.store.checkpoints().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_outside_change_stops_a_rewind_unless_forced() {
    let s = setup();
    let a = s.root.join("a.txt");
    fs::write(&a, "original\n").expect("seed");
    s.store.begin_prompt("p1").expect("p1");
    ok(&s.rt, "Read", json!({"file_path": "a.txt"})).await;
    ok(
        &s.rt,
        "Edit",
        json!({"file_path": "a.txt", "old_string": "original", "new_string": "by tandem"}),
    )
    .await;

    fs::write(&a, "by the user\n").expect("outside change");
    // The watcher sees it (give it a moment), and the content check confirms it.
    let mut seen = Vec::new();
    for _ in 0..250 {
        seen = s.store.changed_outside();
        if !seen.is_empty() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(seen, vec![a.clone()]);

    let report = s.store.rewind_files(&s.files, "p1", false).expect("rewind");
    assert!(!report.applied);
    assert_eq!(report.conflicts, vec![a.clone()]);
    assert_eq!(
        fs::read_to_string(&a).expect("a"),
        "by the user\n",
        "nothing was overwritten"
    );

    let report = s
        .store
        .rewind_files(&s.files, "p1", true)
        .expect("forced rewind");
    assert!(report.applied);
    assert_eq!(fs::read_to_string(&a).expect("a"), "original\n");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_store_survives_reopening() {
    let s = setup();
    let a = s.root.join("a.txt");
    fs::write(&a, "v1\n").expect("seed");
    s.store.begin_prompt("p1").expect("p1");
    ok(&s.rt, "Read", json!({"file_path": "a.txt"})).await;
    ok(
        &s.rt,
        "Write",
        json!({"file_path": "a.txt", "content": "v2\n"}),
    )
    .await;
    let reopened = CheckpointStore::open(s.store.root()).expect("reopen");
    let report = reopened.rewind("p1", false).expect("rewind");
    assert!(report.applied);
    assert_eq!(fs::read_to_string(&a).expect("a"), "v1\n");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_damaged_snapshot_stops_the_rewind_before_any_file_changes() {
    let s = setup();
    let (a, b) = (s.root.join("a.txt"), s.root.join("b.txt"));
    fs::write(&a, "a before\n").expect("seed a");
    fs::write(&b, "b before\n").expect("seed b");
    s.store.begin_prompt("p1").expect("p1");
    for (name, old) in [("a.txt", "a before"), ("b.txt", "b before")] {
        ok(&s.rt, "Read", json!({"file_path": name})).await;
        ok(
            &s.rt,
            "Edit",
            json!({"file_path": name, "old_string": old, "new_string": "after"}),
        )
        .await;
    }
    let hash = blake3::hash(b"b before\n").to_hex().to_string();
    let blob = s
        .store
        .root()
        .join("blobs")
        .join(&hash[..2])
        .join(&hash[2..]);
    fs::write(&blob, "tampered").expect("damage the snapshot of b");

    let err = s
        .store
        .rewind_files(&s.files, "p1", false)
        .expect_err("a damaged snapshot is refused");

    assert!(err.to_string().contains("damaged"), "{err}");
    assert_eq!(
        fs::read_to_string(&a).expect("a"),
        "after\n",
        "a is untouched"
    );
    assert_eq!(
        fs::read_to_string(&b).expect("b"),
        "after\n",
        "b is untouched"
    );
}

/// The changes view's source: each changed file with the content it had before the session first changed it,
/// however many prompts changed it since.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn originals_are_each_files_content_before_its_first_change() {
    let s = setup();
    fs::write(s.root.join("a.txt"), "one\n").expect("seed");
    s.store.begin_prompt("p1").expect("p1");
    ok(&s.rt, "Read", json!({"file_path": "a.txt"})).await;
    ok(
        &s.rt,
        "Edit",
        json!({"file_path": "a.txt", "old_string": "one", "new_string": "two"}),
    )
    .await;
    s.store.begin_prompt("p2").expect("p2");
    ok(
        &s.rt,
        "Edit",
        json!({"file_path": "a.txt", "old_string": "two", "new_string": "three"}),
    )
    .await;
    ok(
        &s.rt,
        "Write",
        json!({"file_path": "b.txt", "content": "bee\n"}),
    )
    .await;
    let originals = s.store.originals().expect("originals");
    assert_eq!(
        originals,
        vec![
            (s.root.join("a.txt"), Some(b"one\n".to_vec())),
            (s.root.join("b.txt"), None),
        ]
    );
}

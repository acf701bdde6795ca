//! One database shared by several connections and processes: migrations run once, writers wait for each other,
//! one writer per session, and a file deleted under a running store is reported.

use std::sync::{Arc, Barrier};

use tandem_engine::store::{MIGRATIONS, SessionStore, StoreError};

use super::new_session;

#[test]
fn stores_opened_at_once_on_a_fresh_file_each_keep_their_sessions() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("sessions.db");
    let start = Arc::new(Barrier::new(6));
    let threads: Vec<_> = (0..6)
        .map(|i| {
            let (path, start, folder) = (path.clone(), start.clone(), dir.path().to_path_buf());
            std::thread::spawn(move || -> Result<(), StoreError> {
                start.wait();
                let store = SessionStore::open(&path)?;
                for k in 0..20 {
                    store.create_session(&new_session(&format!("s{i}-{k}"), &folder))?;
                }
                store.flush()
            })
        })
        .collect();
    for t in threads {
        t.join().expect("no panic").expect("every write is stored");
    }
    let store = SessionStore::open(&path).expect("open");
    assert_eq!(store.list_sessions(dir.path()).expect("list").len(), 120);
    assert_eq!(
        store.schema_version().expect("version"),
        MIGRATIONS.len() as i64
    );
}

#[test]
fn a_session_has_one_writer_at_a_time() {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = SessionStore::open(&dir.path().join("sessions.db")).expect("open");
    let held = store.lock_session("s1").expect("the first lock");
    assert!(matches!(store.lock_session("s1"), Err(StoreError::InUse(id)) if id == "s1"));
    store.lock_session("s2").expect("another session is free");
    drop(held);
    store.lock_session("s1").expect("free again once dropped");
}

#[test]
fn a_database_deleted_under_a_running_store_is_reported() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("sessions.db");
    let store = SessionStore::open(&path).expect("open");
    store
        .create_session(&new_session("s1", dir.path()))
        .expect("create");
    assert_eq!(store.failure(), None);
    std::fs::remove_file(&path).expect("delete");
    store
        .rename_session("s1", "gone")
        .expect_err("the deletion is reported");
    let failure = store.failure().expect("kept until the end of the run");
    assert!(failure.contains("deleted or replaced"), "{failure}");
}

#[test]
fn a_session_open_elsewhere_is_not_rewound_under_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = SessionStore::open(&dir.path().join("sessions.db")).expect("open");
    store
        .create_session(&new_session("s1", dir.path()))
        .expect("create");
    let held = store
        .lock_session("s1")
        .expect("the running session's lock");
    let refused = tandem_engine::session::rewind::rewind(
        &store,
        "s1",
        "p1",
        tandem_engine::session::rewind::RewindScope::Conversation,
        false,
    );
    assert!(
        matches!(
            refused,
            Err(tandem_engine::session::rewind::RewindError::Store(
                StoreError::InUse(_)
            ))
        ),
        "{refused:?}"
    );
    drop(held);
}

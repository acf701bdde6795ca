//! Organising a folder's sessions in the store: nested collections, moving sessions and collections, deleting a
//! collection (what it held moves up), tags, pins first, the archive, two stores writing at once, older files.

use std::path::Path;
use std::sync::{Arc, Barrier};

use tandem_engine::store::{MIGRATIONS, SCHEMA_ORGANISE, SessionStore, StoreError};

use super::new_session;

fn store_with(dir: &Path, ids: &[&str]) -> SessionStore {
    let store = SessionStore::open(&dir.join("sessions.db")).expect("open");
    for id in ids {
        store.create_session(&new_session(id, dir)).expect("create");
    }
    store
}

/// Each listed session's id with its collection.
fn places(store: &SessionStore, folder: &Path) -> Vec<(String, Option<i64>)> {
    store
        .list_sessions(folder)
        .expect("list")
        .into_iter()
        .map(|s| (s.record.id, s.organised.collection_id))
        .collect()
}

fn ids(store: &SessionStore, folder: &Path) -> Vec<String> {
    places(store, folder)
        .into_iter()
        .map(|(id, _)| id)
        .collect()
}

#[test]
fn collections_nest_and_move_but_never_into_themselves() {
    let dir = tempfile::tempdir().expect("tempdir");
    let other = tempfile::tempdir().expect("another project");
    let store = store_with(dir.path(), &["s1"]);
    let work = store
        .create_collection(dir.path(), "  Work  ", None)
        .expect("top level");
    assert_eq!(work.name, "Work");
    let bugs = store
        .create_collection(dir.path(), "Bugs", Some(work.id))
        .expect("inside Work");
    let old = store
        .create_collection(dir.path(), "Old bugs", Some(bugs.id))
        .expect("inside Bugs");
    let foreign = store
        .create_collection(other.path(), "Elsewhere", None)
        .expect("another project's");

    let parents = |store: &SessionStore| -> Vec<(String, Option<i64>)> {
        store
            .collections(dir.path())
            .expect("collections")
            .into_iter()
            .map(|c| (c.name, c.parent_id))
            .collect()
    };
    assert_eq!(
        parents(&store),
        vec![
            ("Bugs".to_string(), Some(work.id)),
            ("Old bugs".to_string(), Some(bugs.id)),
            ("Work".to_string(), None),
        ]
    );

    // Each refused move: (collection, new parent).
    let refused = [
        (work.id, Some(work.id)),
        (work.id, Some(old.id)),
        (bugs.id, Some(old.id)),
        (work.id, Some(foreign.id)),
        (work.id, Some(9_999)),
    ];
    for (id, parent) in refused {
        let err = store
            .move_collection(id, parent)
            .expect_err(&format!("{id} into {parent:?}"));
        assert!(matches!(err, StoreError::Organise(_)), "{err}");
    }
    assert!(matches!(
        store.create_collection(dir.path(), "x", Some(foreign.id)),
        Err(StoreError::Organise(_))
    ));
    assert!(matches!(
        store.create_collection(dir.path(), "   ", None),
        Err(StoreError::Organise(_))
    ));

    store.move_collection(old.id, None).expect("to the top");
    store
        .move_collection(work.id, Some(old.id))
        .expect("Work into what is now outside it");
    store
        .rename_collection(old.id, "Archive 2025")
        .expect("rename");
    assert_eq!(
        parents(&store),
        vec![
            ("Archive 2025".to_string(), None),
            ("Bugs".to_string(), Some(work.id)),
            ("Work".to_string(), Some(old.id)),
        ]
    );

    store.move_session("s1", Some(bugs.id)).expect("into Bugs");
    assert_eq!(
        places(&store, dir.path()),
        vec![("s1".into(), Some(bugs.id))]
    );
    assert!(matches!(
        store.move_session("s1", Some(foreign.id)),
        Err(StoreError::Organise(_))
    ));
    assert!(matches!(
        store.move_session("nobody", Some(bugs.id)),
        Err(StoreError::UnknownSession(_))
    ));
    store.move_session("s1", None).expect("back to the top");
    assert_eq!(places(&store, dir.path()), vec![("s1".into(), None)]);
}

#[test]
fn a_deleted_collection_moves_its_sessions_and_collections_up_not_away() {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = store_with(dir.path(), &["s1", "s2", "s3"]);
    let outer = store
        .create_collection(dir.path(), "Outer", None)
        .expect("outer");
    let middle = store
        .create_collection(dir.path(), "Middle", Some(outer.id))
        .expect("middle");
    let inner = store
        .create_collection(dir.path(), "Inner", Some(middle.id))
        .expect("inner");
    store.move_session("s1", Some(middle.id)).expect("s1");
    store.move_session("s2", Some(outer.id)).expect("s2");
    store.move_session("s3", Some(inner.id)).expect("s3");

    store.delete_collection(middle.id).expect("delete Middle");
    let mut now = places(&store, dir.path());
    now.sort();
    assert_eq!(
        now,
        vec![
            ("s1".into(), Some(outer.id)),
            ("s2".into(), Some(outer.id)),
            ("s3".into(), Some(inner.id)),
        ]
    );
    assert_eq!(
        store
            .collection(inner.id)
            .expect("read")
            .map(|c| c.parent_id),
        Some(Some(outer.id))
    );

    store.delete_collection(outer.id).expect("delete Outer");
    let mut now = places(&store, dir.path());
    now.sort();
    assert_eq!(
        now,
        vec![
            ("s1".into(), None),
            ("s2".into(), None),
            ("s3".into(), Some(inner.id)),
        ]
    );
    assert!(matches!(
        store.delete_collection(outer.id),
        Err(StoreError::Organise(_))
    ));
}

#[test]
fn tags_are_cleaned_replaced_and_bounded() {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = store_with(dir.path(), &["s1", "s2"]);
    let tags = |list: &[&str]| list.iter().map(|t| t.to_string()).collect::<Vec<_>>();
    // (given, stored)
    let table: [(&[&str], &[&str]); 4] = [
        (&["Bug", " bug ", "UI   work"], &["bug", "ui work"]),
        (&["zeta", "alpha"], &["alpha", "zeta"]),
        (&["ünïcode"], &["ünïcode"]),
        (&[], &[]),
    ];
    for (given, stored) in table {
        assert_eq!(
            store.set_tags("s1", &tags(given)).expect("tags"),
            tags(stored)
        );
        let listed = store.list_sessions(dir.path()).expect("list");
        let s1 = listed.iter().find(|s| s.record.id == "s1").expect("s1");
        assert_eq!(s1.organised.tags, tags(stored), "{given:?}");
    }
    store.set_tags("s2", &tags(&["kept"])).expect("tags");
    for bad in [
        tags(&[""]),
        tags(&["  "]),
        vec!["x".repeat(121)],
        (0..33).map(|i| format!("t{i}")).collect(),
    ] {
        assert!(matches!(
            store.set_tags("s2", &bad),
            Err(StoreError::Organise(_))
        ));
    }
    assert!(matches!(
        store.set_tags("nobody", &tags(&["a"])),
        Err(StoreError::UnknownSession(_))
    ));
    let listed = store.list_sessions(dir.path()).expect("list");
    let s2 = listed.iter().find(|s| s.record.id == "s2").expect("s2");
    assert_eq!(
        s2.organised.tags,
        tags(&["kept"]),
        "a refused change changes nothing"
    );
}

#[test]
fn pinned_sessions_are_listed_first_the_last_pinned_on_top() {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = store_with(dir.path(), &[]);
    // Created one after another: s3 was updated last, so it leads the unpinned.
    for id in ["s1", "s2", "s3"] {
        store
            .create_session(&new_session(id, dir.path()))
            .expect("create");
        let before = store.session(id).expect("read").expect("stored").updated_at;
        while chrono::Utc::now().timestamp_millis() <= before {
            std::thread::yield_now();
        }
    }
    assert_eq!(ids(&store, dir.path()), ["s3", "s2", "s1"]);
    store.set_pinned("s1", true).expect("pin s1");
    assert_eq!(ids(&store, dir.path()), ["s1", "s3", "s2"]);
    let pinned_at = |store: &SessionStore, id: &str| {
        store
            .list_sessions(dir.path())
            .expect("list")
            .into_iter()
            .find(|s| s.record.id == id)
            .and_then(|s| s.organised.pinned_at)
    };
    let first = pinned_at(&store, "s1").expect("pinned");
    while chrono::Utc::now().timestamp_millis() <= first {
        std::thread::yield_now();
    }
    store.set_pinned("s2", true).expect("pin s2");
    assert_eq!(ids(&store, dir.path()), ["s2", "s1", "s3"]);
    store
        .set_pinned("s1", true)
        .expect("pinning again keeps its time");
    assert_eq!(pinned_at(&store, "s1"), Some(first));
    store.set_pinned("s2", false).expect("unpin s2");
    assert_eq!(ids(&store, dir.path()), ["s1", "s3", "s2"]);
}

#[test]
fn an_archived_session_is_kept_and_can_be_restored() {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = store_with(dir.path(), &["s1", "s2"]);
    store.set_tags("s1", &["keep".to_string()]).expect("tag");
    store.set_archived("s1", true).expect("archive");
    let listed = store.list_sessions(dir.path()).expect("list");
    let archived: Vec<_> = listed
        .iter()
        .map(|s| (s.record.id.as_str(), s.organised.archived()))
        .collect();
    assert!(archived.contains(&("s1", true)) && archived.contains(&("s2", false)));
    assert!(
        store.load_session("s1").expect("load").is_some(),
        "kept whole"
    );
    store.set_archived("s1", false).expect("restore");
    let listed = store.list_sessions(dir.path()).expect("list");
    let s1 = listed.iter().find(|s| s.record.id == "s1").expect("s1");
    assert!(!s1.organised.archived());
    assert_eq!(s1.organised.tags, ["keep"], "restored as it was");
    assert!(matches!(
        store.set_archived("nobody", true),
        Err(StoreError::UnknownSession(_))
    ));
}

#[test]
fn a_deleted_session_takes_its_marks_with_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = store_with(dir.path(), &["s1"]);
    let box_ = store
        .create_collection(dir.path(), "Box", None)
        .expect("box");
    store.move_session("s1", Some(box_.id)).expect("move");
    store.set_pinned("s1", true).expect("pin");
    store.set_tags("s1", &["t".to_string()]).expect("tag");
    store.delete_session("s1").expect("delete");
    store
        .create_session(&new_session("s1", dir.path()))
        .expect("the same id again");
    let listed = store.list_sessions(dir.path()).expect("list");
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].organised, Default::default());
    assert_eq!(
        store.collections(dir.path()).expect("collections").len(),
        1,
        "the collection stays"
    );
}

#[test]
fn two_stores_organising_at_once_lose_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("sessions.db");
    let ids: Vec<String> = (0..40).map(|i| format!("s{i}")).collect();
    {
        let store = SessionStore::open(&path).expect("open");
        for id in &ids {
            store
                .create_session(&new_session(id, dir.path()))
                .expect("create");
        }
    }
    let start = Arc::new(Barrier::new(2));
    let threads: Vec<_> = (0..2)
        .map(|half| {
            let (path, start, ids, folder) = (
                path.clone(),
                start.clone(),
                ids.clone(),
                dir.path().to_path_buf(),
            );
            std::thread::spawn(move || -> Result<(), StoreError> {
                // Each thread its own store: as two processes would.
                let store = SessionStore::open(&path)?;
                start.wait();
                let mine = store.create_collection(&folder, &format!("c{half}"), None)?;
                for id in ids.iter().skip(half).step_by(2) {
                    store.set_tags(id, &[format!("h{half}")])?;
                    store.set_pinned(id, true)?;
                    store.move_session(id, Some(mine.id))?;
                    store.set_archived(id, true)?;
                }
                Ok(())
            })
        })
        .collect();
    for t in threads {
        t.join().expect("no panic").expect("every change is made");
    }
    let store = SessionStore::open(&path).expect("open");
    let collections = store.collections(dir.path()).expect("collections");
    assert_eq!(collections.len(), 2);
    for summary in store.list_sessions(dir.path()).expect("list") {
        let n: usize = summary.record.id[1..].parse().expect("number");
        let half = n % 2;
        let expected = collections
            .iter()
            .find(|c| c.name == format!("c{half}"))
            .map(|c| c.id);
        assert_eq!(
            summary.organised.tags,
            [format!("h{half}")],
            "{}",
            summary.record.id
        );
        assert!(summary.organised.pinned() && summary.organised.archived());
        assert_eq!(summary.organised.collection_id, expected);
    }
}

#[test]
fn a_file_of_an_older_schema_lists_sessions_unorganised_and_refuses_to_organise() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("sessions.db");
    let before: Vec<&str> = MIGRATIONS
        .iter()
        .copied()
        .take_while(|m| *m != SCHEMA_ORGANISE)
        .collect();
    let old = SessionStore::open_with_migrations(&path, &before).expect("the schema before");
    old.create_session(&new_session("s1", dir.path()))
        .expect("create");
    let listed = old.list_sessions(dir.path()).expect("list");
    assert_eq!(listed[0].organised, Default::default());
    assert!(old.collections(dir.path()).expect("none").is_empty());
    assert!(matches!(
        old.set_pinned("s1", true),
        Err(StoreError::NoOrganising)
    ));
    drop(old);
    let upgraded = SessionStore::open(&path).expect("migrated in place");
    upgraded.set_pinned("s1", true).expect("now it can");
    assert!(
        upgraded.list_sessions(dir.path()).expect("list")[0]
            .organised
            .pinned()
    );
}

//! A hosted agent that stores its sessions in the same file (`tandem acp` on this machine): the lists show the host
//! session once, without the agent's twin, which still opens by id (how the agent continues it); a file written
//! before the table existed learns its twins when it is migrated.

use tandem_engine::store::{MIGRATIONS, SessionStore};
use tandem_protocol::SessionEvent;

use super::new_session;

fn opened(agent_session: &str) -> SessionEvent {
    SessionEvent::HostedSessionOpened {
        agent: "tandem".into(),
        agent_session_id: agent_session.into(),
    }
}

fn listed(store: &SessionStore, folder: &std::path::Path) -> Vec<String> {
    store
        .list_sessions(folder)
        .expect("list")
        .into_iter()
        .map(|s| s.record.id)
        .collect()
}

#[test]
fn the_lists_leave_out_a_hosted_agents_own_session_in_the_same_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = SessionStore::open(&dir.path().join("sessions.db")).expect("open");
    for id in ["host", "agent", "plain"] {
        store
            .create_session(&new_session(id, dir.path()))
            .expect("create");
    }
    store.record_event("host", 0, opened("agent"));
    // An agent elsewhere (its session in another file) hides nothing here.
    store.record_event("plain", 0, opened("far-away"));
    store.flush().expect("flush");
    let mut ids = listed(&store, dir.path());
    ids.sort();
    assert_eq!(ids, ["host", "plain"]);
    assert!(
        store
            .list_all_sessions()
            .expect("all")
            .iter()
            .all(|s| s.record.id != "agent")
    );
    assert!(
        store.load_session("agent").expect("load").is_some(),
        "still opened by id"
    );
}

#[test]
fn a_file_of_the_schema_before_learns_its_twins_when_migrated() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("sessions.db");
    let before = &MIGRATIONS[..MIGRATIONS.len() - 1];
    let old = SessionStore::open_with_migrations(&path, before).expect("the schema before");
    for id in ["host", "agent"] {
        old.create_session(&new_session(id, dir.path()))
            .expect("create");
    }
    old.record_event("host", 0, opened("agent"));
    old.flush().expect("flush");
    assert_eq!(
        listed(&old, dir.path()).len(),
        2,
        "the old schema lists both"
    );
    drop(old);
    let upgraded = SessionStore::open(&path).expect("migrated in place");
    assert_eq!(listed(&upgraded, dir.path()), ["host"]);
}

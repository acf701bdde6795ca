//! The app's log file: appended to, moved aside to `.1` at its cap without splitting a line, and written through
//! the tracing subscriber one event per write.

use std::io::Write;

use tandem_app::logging::CappedLog;
use tracing_subscriber::fmt::MakeWriter;

fn line(n: usize) -> String {
    format!("event {n:02} {}\n", "x".repeat(20))
}

#[test]
fn the_log_appends_and_moves_aside_at_its_cap() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("tandem.log");
    let aside = dir.path().join("tandem.log.1");
    std::fs::write(&path, line(0)).expect("an earlier run's log");
    let cap = 3 * line(0).len() as u64;
    let log = CappedLog::open(&path, cap).expect("open");

    for n in 1..=2 {
        log.make_writer()
            .write_all(line(n).as_bytes())
            .expect("write");
    }
    assert_eq!(
        std::fs::read_to_string(&path).expect("read"),
        [line(0), line(1), line(2)].concat(),
        "appended to the earlier run's lines"
    );
    assert!(!aside.exists());

    for n in 3..=7 {
        log.make_writer()
            .write_all(line(n).as_bytes())
            .expect("write");
    }
    assert_eq!(
        std::fs::read_to_string(&aside).expect("read"),
        [line(3), line(4), line(5)].concat(),
        "the previous file moved aside, replacing the older one"
    );
    assert_eq!(
        std::fs::read_to_string(&path).expect("read"),
        [line(6), line(7)].concat()
    );
}

#[test]
fn a_line_longer_than_the_cap_is_still_written_whole() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("tandem.log");
    let log = CappedLog::open(&path, 4).expect("open");

    log.make_writer()
        .write_all(line(1).as_bytes())
        .expect("write");
    log.make_writer()
        .write_all(line(2).as_bytes())
        .expect("write");

    assert_eq!(std::fs::read_to_string(&path).expect("read"), line(2));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("tandem.log.1")).expect("read"),
        line(1)
    );
}

#[test]
fn events_reach_the_file_through_the_subscriber() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("tandem.log");
    let log = CappedLog::open(&path, 1 << 20).expect("open");
    let subscriber = tracing_subscriber::fmt()
        .with_ansi(false)
        .with_writer(log)
        .finish();

    tracing::subscriber::with_default(subscriber, || {
        let span = tracing::info_span!("open_session", path = "/p");
        let _entered = span.enter();
        tracing::warn!(code = "folder_missing", "no such folder");
    });

    let text = std::fs::read_to_string(&path).expect("read");
    assert!(
        text.contains("WARN")
            && text.contains("open_session{path=\"/p\"}")
            && text.contains("no such folder"),
        "{text}"
    );
}

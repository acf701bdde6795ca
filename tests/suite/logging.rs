//! The app's log file: appended to, moved aside at its cap without splitting a line (one earlier file kept),
//! written through the tracing subscriber one event per line without colour codes, and the lines logged before the
//! file is opened written first.

use std::io::Write;
use std::path::Path;
use std::sync::Arc;

use tandem_app::logging::{LogSink, file_logger};
use tauri::test::{MockRuntime, mock_app};

fn line(n: usize) -> String {
    format!("event {n:02} {}", "x".repeat(20))
}

/// The lines of `lines` as a file holds them.
fn text(lines: &[String]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

/// A sink writing to `<dir>/tandem.log` capped at `cap` bytes (and the app that holds the plugin).
fn sink(dir: &Path, cap: u64) -> (LogSink, tauri::App<MockRuntime>) {
    let app = mock_app();
    let (_plugin, logger) = file_logger(app.handle(), dir, cap).expect("the log opens");
    let sink = LogSink::new();
    sink.attach(logger);
    (sink, app)
}

fn write(sink: &LogSink, line: &str) {
    (&*sink)
        .write_all(format!("{line}\n").as_bytes())
        .expect("write");
}

/// The earlier files beside the log (its name with a date), newest first.
fn earlier(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("read dir")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with("tandem_") && n.ends_with(".log"))
        .collect();
    names.sort();
    names.reverse();
    names
        .iter()
        .map(|n| std::fs::read_to_string(dir.join(n)).expect("read"))
        .collect()
}

#[test]
fn the_log_appends_and_moves_aside_at_its_cap() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("tandem.log");
    std::fs::write(&path, text(&[line(0)])).expect("an earlier run's log");
    let cap = 3 * (line(0).len() + 1) as u64;
    let (log, _app) = sink(dir.path(), cap);

    for n in 1..=2 {
        write(&log, &line(n));
    }
    assert_eq!(
        std::fs::read_to_string(&path).expect("read"),
        text(&[line(0), line(1), line(2)]),
        "appended to the earlier run's lines"
    );
    assert!(earlier(dir.path()).is_empty());

    for n in 3..=7 {
        write(&log, &line(n));
    }
    assert_eq!(
        earlier(dir.path()).first().cloned().unwrap_or_default(),
        text(&[line(3), line(4), line(5)]),
        "the previous file moved aside"
    );
    assert_eq!(
        std::fs::read_to_string(&path).expect("read"),
        text(&[line(6), line(7)])
    );
}

#[test]
fn a_line_longer_than_the_cap_is_still_written_whole() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("tandem.log");
    let (log, _app) = sink(dir.path(), 4);

    write(&log, &line(1));
    write(&log, &line(2));

    assert_eq!(
        std::fs::read_to_string(&path).expect("read"),
        text(&[line(2)])
    );
    assert_eq!(earlier(dir.path()), vec![text(&[line(1)])]);
}

#[test]
fn events_reach_the_file_through_the_subscriber_and_early_lines_first() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("tandem.log");
    let log = Arc::new(LogSink::new());
    let subscriber = tracing_subscriber::fmt()
        .with_ansi(false)
        .with_writer(Arc::clone(&log))
        .finish();

    tracing::subscriber::with_default(subscriber, || {
        tracing::info!("before the file is open");
        let app = mock_app();
        let (_plugin, logger) = file_logger(app.handle(), dir.path(), 1 << 20).expect("opens");
        assert!(!path.exists() || std::fs::read_to_string(&path).expect("read").is_empty());
        log.attach(logger);
        let span = tracing::info_span!("open_session", path = "/p");
        let _entered = span.enter();
        tracing::warn!(code = "folder_missing", "no such folder");
    });

    let text = std::fs::read_to_string(&path).expect("read");
    let early = text.find("before the file is open");
    let later = text.find("no such folder");
    assert!(
        early.is_some() && later.is_some() && early < later,
        "{text}"
    );
    assert!(
        text.contains("WARN") && text.contains("open_session{path=\"/p\"}"),
        "{text}"
    );
    assert!(!text.contains('\u{1b}'), "no colour codes: {text:?}");
    assert_eq!(text.lines().count(), 2, "one line per event: {text}");
}

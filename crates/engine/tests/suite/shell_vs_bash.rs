//! Property tests of the parts the analysis sees against what bash runs, and of the SSE parser. Generated simple
//! commands (quoting of every kind, brace expansion, escapes, ANSI-C strings, lists and pipes) run under bash with
//! a logging program on the PATH; every command the analysis fully understands must run exactly the argument
//! vectors it reports. The SSE parser never panics and gives the same events however its input is split.

use std::path::Path;
use std::process::Command;

use futures::StreamExt;
use proptest::prelude::*;
use tandem_engine::model::sse::{SseEvent, events};
use tandem_engine::shell::analyse;

/// Program names the shim answers to.
const PROGRAMS: &[&str] = &["cmda", "cmdb"];

fn word() -> impl Strategy<Value = String> {
    let atom = prop::sample::select(vec![
        "a",
        "b-c",
        "--opt=v",
        "-f",
        "'q s'",
        "\"d q\"",
        "x\\ y",
        "$'t\\x41'",
        "$'n\\tl'",
        "{m,n}",
        "p{1,2}q",
        "''",
        "\"\"",
        "\\'",
        "\"a'b\"",
        "'a\"b'",
        "\\$x",
        "'$x'",
        "\"\\$x\"",
        "é",
        "=",
        "k=v",
        "\\\\",
    ]);
    prop::collection::vec(atom, 1..3).prop_map(|v| v.concat())
}

fn simple() -> impl Strategy<Value = String> {
    (
        prop::sample::select(PROGRAMS.to_vec()),
        prop::collection::vec(word(), 0..4),
    )
        .prop_map(|(p, args)| {
            std::iter::once(p.to_string())
                .chain(args)
                .collect::<Vec<_>>()
                .join(" ")
        })
}

fn command() -> impl Strategy<Value = String> {
    let sep = prop::sample::select(vec![" ; ", " && ", " | ", "\n"]);
    (simple(), prop::collection::vec((sep, simple()), 0..3)).prop_map(|(first, rest)| {
        let mut out = first;
        for (s, c) in rest {
            out.push_str(s);
            out.push_str(&c);
        }
        out
    })
}

/// A folder with the logging programs; each writes its argument vector (NUL-separated) to a file of its own in
/// the folder `$SHIM_LOG`.
fn shims(dir: &Path) {
    use std::os::unix::fs::PermissionsExt;
    for name in PROGRAMS {
        let path = dir.join(name);
        std::fs::write(
            &path,
            "#!/bin/bash\nprintf '%s\\0' \"${0##*/}\" \"$@\" > \"$SHIM_LOG/$BASHPID\"\n",
        )
        .expect("write shim");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
}

/// The argument vectors bash ran for `command`, sorted (pipes run in any order).
fn bash_runs(dir: &Path, command: &str) -> Vec<Vec<String>> {
    let log = dir.join("log");
    // A shim just written can be "busy" for a moment (exit 126): a child another test thread forked may still hold
    // it open for writing until that child execs. Run again once that has passed.
    let mut tries = 0;
    let status = loop {
        let _ = std::fs::remove_dir_all(&log);
        std::fs::create_dir(&log).expect("log folder");
        let status = Command::new("/bin/bash")
            .arg("-c")
            .arg(command)
            .current_dir(dir)
            .env_clear()
            .env("PATH", dir)
            .env("SHIM_LOG", &log)
            .env("LC_ALL", "C.UTF-8")
            .status()
            .expect("bash runs");
        tries += 1;
        if status.code() != Some(126) || tries == 100 {
            break status;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert!(status.success(), "bash failed on {command:?}: {status}");
    let mut runs: Vec<Vec<String>> = std::fs::read_dir(&log)
        .expect("log folder")
        .map(|entry| {
            let bytes = std::fs::read(entry.expect("entry").path()).expect("a record");
            let mut argv: Vec<String> = bytes
                .split(|b| *b == 0)
                .map(|s| String::from_utf8_lossy(s).into_owned())
                .collect();
            argv.pop(); // after the last NUL
            argv
        })
        .collect();
    runs.sort();
    runs
}

/// Well-formed event streams: events of an optional `event:` line and `data:` lines (with and without the space,
/// multi-byte text, LF, CRLF or CR line ends), comments, `id:` and `retry:` lines, blank lines, and sometimes a last
/// event without the blank line after it.
fn sse_text() -> impl Strategy<Value = String> {
    let end = prop::sample::select(vec!["\n", "\r\n", "\r"]);
    let data = prop::sample::select(vec![
        "data: x",
        "data:y",
        "data: é z",
        "data:",
        "data: {\"a\":1}",
    ]);
    let extra = prop::sample::select(vec!["", ": comment", "id: 1", "retry: 5"]);
    let event = (
        prop::option::of(prop::sample::select(vec![
            "event: a",
            "event:b",
            "event: ping",
        ])),
        prop::collection::vec(data, 0..3),
        extra,
        end,
    )
        .prop_map(|(name, data, extra, end)| {
            let mut text = String::new();
            for line in name
                .into_iter()
                .chain(data)
                .chain(Some(extra).filter(|e| !e.is_empty()))
            {
                text.push_str(line);
                text.push_str(end);
            }
            text.push_str(end);
            text
        });
    (prop::collection::vec(event, 0..8), any::<bool>()).prop_map(|(events, cut_last)| {
        let mut text = events.concat();
        if cut_last && text.len() > 1 {
            // The body ends without the last blank line.
            text = text.trim_end_matches(['\r', '\n']).to_string();
        }
        text
    })
}

fn parse_all(chunks: &[&[u8]]) -> Vec<Result<SseEvent, String>> {
    let body = futures::stream::iter(
        chunks
            .iter()
            .map(|c| Ok::<_, std::io::Error>(bytes::Bytes::copy_from_slice(c)))
            .collect::<Vec<_>>(),
    );
    futures::executor::block_on(events(body).map(|e| e.map_err(|e| e.to_string())).collect())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn what_the_analysis_understands_is_what_bash_runs(command in command()) {
        let analysis = analyse(&command);
        prop_assume!(analysis.unanalysable_reason().is_none());
        let dir = tempfile::tempdir().expect("tempdir");
        shims(dir.path());
        let mut seen: Vec<Vec<String>> = analysis
            .parts
            .iter()
            .filter(|p| !p.deny_only && !p.argv().is_empty())
            .map(|p| p.argv().iter().map(|w| w.text().to_string()).collect())
            .collect();
        seen.sort();
        prop_assert_eq!(seen, bash_runs(dir.path(), &command), "command: {:?}", command);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn the_sse_parser_gives_the_same_events_however_the_input_is_split(
        text in sse_text(),
        cuts in prop::collection::vec(0usize..200, 0..8),
        noise in prop::collection::vec(any::<u8>(), 0..64),
    ) {
        let bytes = text.as_bytes();
        let whole = parse_all(&[bytes]);
        let mut points: Vec<usize> = cuts.into_iter().map(|c| c.min(bytes.len())).collect();
        points.sort();
        let mut chunks: Vec<&[u8]> = Vec::new();
        let mut at = 0;
        for p in points {
            chunks.push(&bytes[at..p]);
            at = p;
        }
        chunks.push(&bytes[at..]);
        prop_assert!(whole.iter().all(Result::is_ok), "{:?}", whole);
        prop_assert_eq!(parse_all(&chunks), whole);
        // Arbitrary bytes never panic.
        let _ = parse_all(&[&noise, bytes, &noise]);
    }
}

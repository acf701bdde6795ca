//! Several `tandem tool` processes editing one file at once: an edit reported as made is in the file, and an edit
//! that lost the race is refused with "modified since it was read", never silently overwritten.

use futures::future::join_all;
use serde_json::{Value, json};
use tokio::io::{AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout};

use super::commands::calls_session;

const WRITERS: usize = 8;

struct Writer {
    slot: usize,
    child: Child,
    stdin: ChildStdin,
    lines: Lines<BufReader<ChildStdout>>,
}

impl Writer {
    async fn call(&mut self, call: &Value) -> Value {
        self.stdin
            .write_all(format!("{call}\n").as_bytes())
            .await
            .expect("write a call");
        let line = self
            .lines
            .next_line()
            .await
            .expect("read an answer")
            .expect("an answer line");
        serde_json::from_str(&line).expect("a JSON answer")
    }
}

fn slot_open(i: usize) -> String {
    format!("slot {i}: open\n")
}

fn slot_done(i: usize) -> String {
    format!("slot {i}: done by writer {i}\n")
}

#[tokio::test]
async fn parallel_edits_of_one_file_from_many_processes_lose_nothing() {
    let dir = tempfile::tempdir().expect("project");
    let file = dir.path().join("shared.txt");
    std::fs::write(&file, (0..WRITERS).map(slot_open).collect::<String>()).expect("seed");
    let mut writers: Vec<Writer> = (0..WRITERS)
        .map(|slot| {
            let (child, stdin, lines) = calls_session(
                dir.path(),
                dir.path(),
                &["--permission-mode", "acceptEdits"],
            );
            Writer {
                slot,
                child,
                stdin,
                lines,
            }
        })
        .collect();

    let read = json!({"tool": "Read", "input": {"file_path": file}});
    let mut done = [false; WRITERS];
    let mut refusals = 0;
    // Each round every writer still pending reads the file, then all of them edit it at once. At least one edit of
    // a round succeeds (the first to take the file), so WRITERS rounds are always enough.
    for round in 0..WRITERS {
        let pending: Vec<&mut Writer> = writers.iter_mut().filter(|w| !done[w.slot]).collect();
        if pending.is_empty() {
            break;
        }
        let reads = join_all(pending.into_iter().map(|w| async {
            let answer = w.call(&read).await;
            assert_eq!(answer["is_error"], false, "{answer}");
            w
        }))
        .await;
        let edits = join_all(reads.into_iter().map(|w| async {
            let edit = json!({"tool": "Edit", "input": {
                "file_path": file, "old_string": slot_open(w.slot), "new_string": slot_done(w.slot)
            }});
            (w.slot, w.call(&edit).await)
        }))
        .await;
        for (slot, answer) in edits {
            if answer["is_error"] == false {
                done[slot] = true;
            } else {
                refusals += 1;
                let why = answer["content"].as_str().unwrap_or_default();
                assert!(
                    why.contains("modified since it was read"),
                    "round {round}, writer {slot}: {why}"
                );
            }
        }
        let now = std::fs::read_to_string(&file).expect("read back");
        for (slot, _) in done.iter().enumerate().filter(|(_, d)| **d) {
            assert!(
                now.contains(&slot_done(slot)),
                "round {round}: writer {slot}'s edit was reported as made but is not in the file:\n{now}"
            );
        }
    }
    assert!(done.iter().all(|d| *d), "every writer got its edit in");
    let expected: String = (0..WRITERS).map(slot_done).collect();
    assert_eq!(std::fs::read_to_string(&file).expect("read"), expected);
    assert!(refusals > 0, "the writers raced");
    for mut w in writers {
        drop(w.stdin);
        assert!(w.child.wait().await.expect("exit").success());
    }
}

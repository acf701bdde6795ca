//! Editing a large file holds it in memory about twice (its old bytes and its new text), not four times: the plan
//! validation made is taken over by the call instead of loading and copying the file again.

use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;

use super::commands::calls_session;

const SIZE: usize = 64 << 20;

/// The peak resident memory of process `pid` so far, in bytes (Linux).
fn peak_rss(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("proc status");
    let kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM");
    kib * 1024
}

#[tokio::test]
async fn an_edit_of_a_large_file_holds_it_in_memory_about_twice() {
    let dir = tempfile::tempdir().expect("project");
    let file = dir.path().join("big.txt");
    let line = "a line of a large text file, the same on every line of it\n";
    let half = SIZE / 2 / line.len();
    let mut text = line.repeat(half);
    text.push_str("THE ONE MARKER\n");
    text.push_str(&line.repeat(half));
    std::fs::write(&file, &text).expect("write");
    drop(text);

    let (mut child, mut stdin, mut lines) = calls_session(
        dir.path(),
        dir.path(),
        &["--permission-mode", "acceptEdits"],
    );
    let pid = child.id().expect("pid");
    let mut call = async |call: Value| -> Value {
        stdin
            .write_all(format!("{call}\n").as_bytes())
            .await
            .expect("write");
        let line = lines.next_line().await.expect("read").expect("a line");
        serde_json::from_str(&line).expect("JSON")
    };

    let read = call(json!({"tool": "Read", "input": {"file_path": file, "limit": 5}})).await;
    assert_eq!(read["is_error"], false, "{read}");
    let before = peak_rss(pid);
    let edit = call(json!({"tool": "Edit", "input": {
        "file_path": file, "old_string": "THE ONE MARKER", "new_string": "THE CHANGED MARKER"
    }}))
    .await;
    assert_eq!(edit["is_error"], false, "{edit}");
    let grown = peak_rss(pid).saturating_sub(before);
    assert!(
        grown < 3 * SIZE as u64,
        "the edit of a {} MiB file took {} MiB more at its peak",
        SIZE >> 20,
        grown >> 20
    );
    drop(stdin);
    assert!(child.wait().await.expect("exit").success());
    let after = std::fs::read_to_string(&file).expect("read back");
    assert_eq!(
        after.len(),
        SIZE / 2 / line.len() * 2 * line.len() + "THE CHANGED MARKER\n".len()
    );
    assert!(after.contains("THE CHANGED MARKER\n"));
}

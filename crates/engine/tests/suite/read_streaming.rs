//! Read streams text files: the edges of `offset`/`limit` (past the end, a last line without a newline, CRLF), a
//! huge single line, and the line count it reports — exact for ordinary files, "more lines follow" for files too
//! large to count — and a partial read of a large file still lets an edit through until the file changes.

use std::fs;

use serde_json::json;

use tandem_engine::testing::{TestRuntime, call};

fn project() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = fs::canonicalize(dir.path()).expect("canon");
    (dir, root)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn edges_of_offset_and_limit() {
    let (_d, root) = project();
    fs::write(root.join("three.txt"), "one\ntwo\nthree\n").expect("write");
    fs::write(root.join("open.txt"), "one\ntwo").expect("write");
    fs::write(root.join("crlf.txt"), "one\r\ntwo\r\nthree\r\n").expect("write");
    fs::write(root.join("empty.txt"), "").expect("write");
    let rt = TestRuntime::new(&root).build();
    let read = |input: serde_json::Value| {
        let rt = &rt;
        async move { call(rt, "Read", &input).await.text }
    };

    assert_eq!(
        read(json!({"file_path": "three.txt", "offset": 10})).await,
        "<system-reminder>The file has 3 lines; offset 10 is past its end.</system-reminder>"
    );
    assert_eq!(
        read(json!({"file_path": "three.txt", "offset": 2, "limit": 1})).await,
        "     2\ttwo\n<system-reminder>Showing lines 2-2 of 3. Use offset and limit to read more.</system-reminder>\n"
    );
    assert_eq!(
        read(json!({"file_path": "open.txt", "offset": 2})).await,
        "     2\ttwo\n"
    );
    assert_eq!(
        read(json!({"file_path": "open.txt", "offset": 3})).await,
        "<system-reminder>The file has 2 lines; offset 3 is past its end.</system-reminder>"
    );
    assert_eq!(
        read(json!({"file_path": "crlf.txt"})).await,
        "     1\tone\n     2\ttwo\n     3\tthree\n"
    );
    assert_eq!(
        read(json!({"file_path": "empty.txt"})).await,
        "<system-reminder>The file exists but is empty.</system-reminder>"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_huge_single_line_is_cut() {
    let (_d, root) = project();
    let mut text = "é".repeat(20_000_000);
    text.push_str("\nafter\n");
    fs::write(root.join("wide.txt"), &text).expect("write");
    let rt = TestRuntime::new(&root).build();
    let r = call(&rt, "Read", &json!({"file_path": "wide.txt"})).await;
    assert!(r.ok, "{}", r.text);
    let first = format!("     1\t{}… [line truncated]\n", "é".repeat(2000));
    assert_eq!(r.text, format!("{first}     2\tafter\n"));
}

/// A file over the size Read counts to the end: 1.2 million numbered lines of 32 bytes (about 37 MiB).
fn large_file(path: &std::path::Path) -> usize {
    let lines = 1_200_000;
    let text: String = (1..=lines)
        .map(|i| format!("line {i:>12} of the large file\n"))
        .collect();
    fs::write(path, text).expect("write");
    lines
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_line_count_of_a_large_file_is_left_open_and_edits_follow_its_timestamp() {
    let (_d, root) = project();
    let path = root.join("big.log");
    let lines = large_file(&path);
    let rt = TestRuntime::new(&root).build();

    let r = call(
        &rt,
        "Read",
        &json!({"file_path": "big.log", "offset": 1000, "limit": 2}),
    )
    .await;
    assert!(r.text.starts_with(
        "  1000\tline         1000 of the large file\n  1001\tline         1001 of the large file\n\
         <system-reminder>Showing lines 1000-1001; more lines follow"
    ));
    assert!(!r.text.contains(" of 1200000"));

    // Reading up to the end finds the count.
    let r = call(
        &rt,
        "Read",
        &json!({"file_path": "big.log", "offset": lines - 1}),
    )
    .await;
    assert_eq!(
        r.text,
        format!(
            "{:>6}\tline {:>12} of the large file\n{:>6}\tline {lines:>12} of the large file\n",
            lines - 1,
            lines - 1,
            lines
        )
    );
    let r = call(
        &rt,
        "Read",
        &json!({"file_path": "big.log", "offset": lines + 5}),
    )
    .await;
    assert!(
        r.text
            .contains(&format!("The file has {lines} lines; offset"))
    );

    // A read of part of it lets an edit through while the file is as it was read.
    let r = call(
        &rt,
        "Read",
        &json!({"file_path": "big.log", "offset": 3, "limit": 1}),
    )
    .await;
    assert!(r.ok, "{}", r.text);
    let r = call(
        &rt,
        "Edit",
        &json!({"file_path": "big.log", "old_string": "line            3 of", "new_string": "line three of"}),
    )
    .await;
    assert!(r.ok, "{}", r.text);
    let r = call(
        &rt,
        "Read",
        &json!({"file_path": "big.log", "offset": 3, "limit": 1}),
    )
    .await;
    assert!(
        r.text.starts_with("     3\tline three of the large file\n"),
        "{}",
        r.text
    );

    // Changed by someone else since: the edit is refused until it is read again.
    let mut text = fs::read_to_string(&path).expect("read");
    text.push_str("appended\n");
    fs::write(&path, text).expect("write");
    let r = call(
        &rt,
        "Edit",
        &json!({"file_path": "big.log", "old_string": "line            4 of", "new_string": "line four of"}),
    )
    .await;
    assert!(
        !r.ok && r.text.contains("modified since it was read"),
        "{}",
        r.text
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bytes_that_are_not_utf8_are_noted_and_shown_replaced() {
    let (_d, root) = project();
    let mut bytes = b"good\n".to_vec();
    bytes.extend_from_slice(&[b'b', 0xFF, b'd', b'\n']);
    fs::write(root.join("latin.txt"), &bytes).expect("write");
    let rt = TestRuntime::new(&root).build();
    let r = call(&rt, "Read", &json!({"file_path": "latin.txt"})).await;
    assert!(
        r.text.contains("first bad byte at offset 6")
            && r.text.ends_with("     1\tgood\n     2\tb\u{FFFD}d\n"),
        "{}",
        r.text
    );
}

//! Grep and Glob against ripgrep and fd on a fixture tree: for the same arguments the tools find exactly what `rg`
//! (`/usr/bin/rg`) and `fdfind` find. The fixture has ignored, hidden, binary, CRLF, UTF-16 and symlinked files.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};
use tandem_engine::tools::grep::{GrepInput, rg_args};

use tandem_engine::testing::{TestRuntime, Workspace, call};

fn write(root: &Path, rel: &str, bytes: &[u8]) {
    let path = root.join(rel);
    fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    fs::write(path, bytes).expect("write");
}

/// A small project: sources in several languages, ignore files, hidden files, a binary, CRLF and UTF-16 text.
fn fixture(root: &Path) {
    fs::create_dir_all(root.join(".git")).expect("git dir");
    write(
        root,
        ".git/HEAD",
        b"ref: refs/heads/main\nTODO inside git\n",
    );
    write(root, ".gitignore", b"target/\n*.log\n/secret.txt\n");
    write(root, ".ignore", b"vendor/skip/\n");
    write(root, "src/main.rs", b"fn main() {\n    // TODO: parse args\n    let todo = 1;\n    println!(\"{}\", todo);\n}\n");
    write(root, "src/lib.rs", b"pub fn add(a: i32, b: i32) -> i32 {\n    a + b // TODO overflow\n}\n\npub fn sub(a: i32, b: i32) -> i32 { a - b }\n");
    write(
        root,
        "src/util/mod.rs",
        b"pub mod strings;\n// Todo: more helpers\n",
    );
    write(
        root,
        "src/util/strings.rs",
        b"pub fn upper(s: &str) -> String {\n    s.to_uppercase()\n}\n",
    );
    write(
        root,
        "web/app.ts",
        b"export function todo(): void {}\nconst x = 'TODO';\n",
    );
    write(
        root,
        "web/view.tsx",
        b"export const View = () => <div>TODO</div>;\n",
    );
    write(root, "web/style.css", b"body { color: red; } /* todo */\n");
    write(
        root,
        "scripts/run.py",
        b"def main():\n    # TODO: retries\n    pass\n\nif __name__ == '__main__':\n    main()\n",
    );
    write(
        root,
        "docs/readme.md",
        b"# Project\r\n\r\nTODO: write docs\r\nSee main.rs.\r\n",
    );
    let mut utf16 = vec![0xFF, 0xFE];
    for unit in "utf16 TODO line\r\nsecond\r\n".encode_utf16() {
        utf16.extend_from_slice(&unit.to_le_bytes());
    }
    write(root, "docs/wide.txt", &utf16);
    write(root, "assets/blob.bin", b"\x00\x01TODO\x00binary");
    write(root, "target/debug/out.rs", b"// TODO generated\n");
    write(root, "build.log", b"TODO in a log\n");
    write(root, "secret.txt", b"TODO secret\n");
    write(root, "vendor/skip/lib.rs", b"// TODO vendored\n");
    write(
        root,
        "vendor/keep/lib.rs",
        b"// TODO kept vendor\nfn kept() {}\n",
    );
    write(root, ".hidden/notes.md", b"TODO hidden notes\n");
    write(root, ".env.example", b"TODO=1\n");
    write(root, "nested/.gitignore", b"*.tmp\n");
    write(root, "nested/a.tmp", b"TODO tmp\n");
    write(
        root,
        "nested/deep/b.rs",
        b"fn b() {\n    let x = \"multi\nline\";\n}\n// TODO deep\n",
    );
    for i in 0..30 {
        write(
            root,
            &format!("many/file{i:02}.txt"),
            format!("line one\nmatch here {i}\nline three\nmatch again\n").as_bytes(),
        );
    }
    std::os::unix::fs::symlink(root.join("src/main.rs"), root.join("link_to_main.rs"))
        .expect("symlink");
}

fn run_cmd(program: &str, args: &[String], cwd: &Path) -> Option<String> {
    let out = Command::new(program)
        .args(args)
        .current_dir(cwd)
        .output()
        .ok()?;
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

fn lines(text: &str) -> BTreeSet<String> {
    text.lines()
        .filter(|l| !l.is_empty() && *l != "--")
        .map(|l| l.strip_prefix("./").unwrap_or(l).to_string())
        .collect()
}

/// The tool's result lines (without its summary lines), as a set.
fn tool_lines(text: &str, mode: &str) -> BTreeSet<String> {
    let body: Vec<&str> = match mode {
        "files_with_matches" => text.lines().skip(1).collect(),
        "count" => text.split("\n\n").next().unwrap_or("").lines().collect(),
        _ => text.lines().collect(),
    };
    if text.starts_with("No ") {
        return BTreeSet::new();
    }
    lines(&body.join("\n"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn grep_finds_what_rg_finds() {
    if Command::new("rg").arg("--version").output().is_err() {
        eprintln!("SKIPPED: rg is not installed");
        return;
    }
    let ws = Workspace::new(&[]).expect("workspace");
    let root = ws.root();
    fixture(&root);
    let rt = TestRuntime::new(&root).build();
    let cases: Vec<Value> = vec![
        json!({"pattern": "TODO"}),
        json!({"pattern": "TODO", "output_mode": "content"}),
        json!({"pattern": "todo", "-i": true, "output_mode": "content"}),
        json!({"pattern": "TODO", "output_mode": "count"}),
        json!({"pattern": "\\btodo\\b", "output_mode": "content"}),
        json!({"pattern": "TODO", "type": "rust", "output_mode": "content"}),
        json!({"pattern": "TODO", "type": "py"}),
        json!({"pattern": "TODO", "glob": "*.{ts,tsx}", "output_mode": "content"}),
        json!({"pattern": "TODO", "glob": "*.rs *.md"}),
        json!({"pattern": "TODO", "glob": "!src/**"}),
        json!({"pattern": "match", "output_mode": "content", "-C": 1}),
        json!({"pattern": "match here", "output_mode": "content", "-A": 1, "-n": false}),
        json!({"pattern": "line three", "output_mode": "content", "-B": 2}),
        json!({"pattern": "fn \\w+\\(", "output_mode": "count"}),
        json!({"pattern": "multi.line", "multiline": true, "output_mode": "content"}),
        json!({"pattern": "\"multi\\nline\"", "multiline": true}),
        json!({"pattern": "TODO", "path": "src", "output_mode": "content"}),
        json!({"pattern": "TODO", "path": "docs/readme.md", "output_mode": "content"}),
        json!({"pattern": "TODO", "path": "assets/blob.bin", "output_mode": "count"}),
        json!({"pattern": "^pub", "output_mode": "content"}),
        json!({"pattern": "a \\+ b|a - b", "output_mode": "content"}),
        json!({"pattern": "utf16", "output_mode": "content"}),
        json!({"pattern": "nothing-matches-this"}),
    ];
    let mut failures = Vec::new();
    for case in cases {
        let mut input = case.clone();
        input["head_limit"] = json!(0);
        let parsed: GrepInput = serde_json::from_value(input.clone()).expect("input");
        let mode = case
            .get("output_mode")
            .and_then(Value::as_str)
            .unwrap_or("files_with_matches");
        let path = case.get("path").and_then(Value::as_str).unwrap_or(".");
        let rg = run_cmd("rg", &rg_args(&parsed, path), &root).expect("rg runs");
        let got = call(&rt, "Grep", &input).await;
        assert!(got.ok, "{case}: {}", got.text);
        if mode == "content" {
            // Under a head limit the search runs in path order and stops early; it must show the same lines.
            let mut limited = input.clone();
            limited["head_limit"] = json!(100_000);
            let ordered = call(&rt, "Grep", &limited).await;
            assert_eq!(ordered.text, got.text, "{case}: ordered search differs");
        }
        let (want, have) = (lines(&rg), tool_lines(&got.text, mode));
        if want != have {
            failures.push(format!(
                "{case}\n  only rg: {:?}\n  only tool: {:?}",
                want.difference(&have).collect::<Vec<_>>(),
                have.difference(&want).collect::<Vec<_>>()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "Grep differs from rg:\n{}",
        failures.join("\n")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn glob_finds_what_fd_finds() {
    if Command::new("fdfind").arg("--version").output().is_err() {
        eprintln!("SKIPPED: fdfind is not installed");
        return;
    }
    let ws = Workspace::new(&[]).expect("workspace");
    let root = ws.root();
    fixture(&root);
    let rt = TestRuntime::new(&root).build();
    // (Glob pattern, fd arguments that mean the same.)
    let cases: Vec<(&str, Vec<&str>)> = vec![
        ("*.rs", vec!["-g", "*.rs"]),
        ("**/*.rs", vec!["-g", "*.rs"]),
        ("*.{ts,tsx}", vec!["-g", "*.{ts,tsx}"]),
        ("file1?.txt", vec!["-g", "file1?.txt"]),
        ("*.md", vec!["-g", "*.md"]),
        ("*.tmp", vec!["-g", "*.tmp"]),
        ("*.log", vec!["-g", "*.log"]),
        ("**/util/*.rs", vec!["-p", "-g", "**/util/*.rs"]),
        ("*", vec!["-g", "*"]),
    ];
    let mut failures = Vec::new();
    for (pattern, fd) in cases {
        let mut args: Vec<String> = vec!["-t".into(), "f".into()];
        args.extend(fd.iter().map(|s| s.to_string()));
        let want = lines(&run_cmd("fdfind", &args, &root).expect("fd runs"));
        let got = call(&rt, "Glob", &json!({"pattern": pattern})).await;
        assert!(got.ok, "{pattern}: {}", got.text);
        let have = if got.text.starts_with("No files") {
            BTreeSet::new()
        } else {
            lines(&got.text)
        };
        if want != have {
            failures.push(format!(
                "{pattern}\n  only fd: {:?}\n  only tool: {:?}",
                want.difference(&have).collect::<Vec<_>>(),
                have.difference(&want).collect::<Vec<_>>()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "Glob differs from fd:\n{}",
        failures.join("\n")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn grep_pages_with_offset_and_head_limit() {
    let ws = Workspace::new(&[]).expect("workspace");
    let root = ws.root();
    fixture(&root);
    let rt = TestRuntime::new(&root).build();
    let all = call(
        &rt,
        "Grep",
        &json!({"pattern": "match", "output_mode": "content", "head_limit": 0}),
    )
    .await;
    let all: Vec<&str> = all.text.lines().collect();
    assert_eq!(all.len(), 60);
    let page = call(
        &rt,
        "Grep",
        &json!({"pattern": "match", "output_mode": "content", "offset": 10, "head_limit": 5}),
    )
    .await;
    let shown: Vec<&str> = page.text.lines().take(5).collect();
    assert_eq!(shown, all[10..15].to_vec());
    assert!(page.text.contains("Use offset to see more"));
}

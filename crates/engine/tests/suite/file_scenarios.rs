//! Scenario folders for Edit, Write and NotebookEdit (tests/scenarios/<name>/): `input/` is copied to a temporary
//! folder, the lines of `calls.jsonl` run in order in one session through the real pipeline, and the folder must
//! then equal `expected/` byte for byte. With `expected_error`, the last call must fail with a message containing
//! that text, and the folder must equal `expected/` if given, else `input/` (a failed call changes nothing).
//!
//! A line is `{"tool": NAME, "input": {...}}` (every string's `$ROOT` is replaced by the folder's path), or a step
//! that plays someone else changing the folder: `{"setup": "write", "path", "content"}`, `{"setup": "delete",
//! "path"}`, `{"setup": "chmod", "path", "mode": "444"}`, `{"setup": "symlink", "link", "target"}`,
//! `{"setup": "mkdir", "path"}`.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

use tandem_engine::testing::{TestRuntime, Workspace, call};

fn scenarios_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios")
}

/// A file tree: relative path → file bytes, symlink target, or folder.
#[derive(Debug, PartialEq, Eq)]
enum Node {
    File(Vec<u8>),
    Link(PathBuf),
    Dir,
}

fn snapshot(root: &Path) -> BTreeMap<PathBuf, Node> {
    let mut out = BTreeMap::new();
    if !root.exists() {
        return out;
    }
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).expect("read_dir") {
            let entry = entry.expect("entry");
            let path = entry.path();
            let rel = path.strip_prefix(root).expect("inside").to_path_buf();
            let ft = entry.file_type().expect("file type");
            if ft.is_symlink() {
                out.insert(rel, Node::Link(fs::read_link(&path).expect("link")));
            } else if ft.is_dir() {
                if rel.as_os_str() == ".keep" {
                    continue;
                }
                out.insert(rel, Node::Dir);
                stack.push(path);
            } else if rel.file_name().is_some_and(|n| n != ".keep") {
                out.insert(rel, Node::File(fs::read(&path).expect("read")));
            }
        }
    }
    out
}

fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).expect("mkdir");
    if !from.exists() {
        return;
    }
    for entry in fs::read_dir(from).expect("read_dir") {
        let entry = entry.expect("entry");
        let dest = to.join(entry.file_name());
        let ft = entry.file_type().expect("ft");
        if ft.is_symlink() {
            std::os::unix::fs::symlink(fs::read_link(entry.path()).expect("link"), &dest)
                .expect("symlink");
        } else if ft.is_dir() {
            copy_tree(&entry.path(), &dest);
        } else if entry.file_name() != ".keep" {
            fs::copy(entry.path(), &dest).expect("copy");
        }
    }
}

fn substitute(value: &Value, root: &str) -> Value {
    match value {
        Value::String(s) => Value::String(s.replace("$ROOT", root)),
        Value::Array(a) => Value::Array(a.iter().map(|v| substitute(v, root)).collect()),
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, v)| (k.clone(), substitute(v, root)))
                .collect(),
        ),
        other => other.clone(),
    }
}

fn setup_step(root: &Path, step: &Value) {
    let path = |key: &str| root.join(step[key].as_str().expect("path"));
    match step["setup"].as_str().expect("setup kind") {
        "write" => {
            fs::write(path("path"), step["content"].as_str().expect("content")).expect("write")
        }
        "delete" => fs::remove_file(path("path")).expect("delete"),
        "mkdir" => fs::create_dir_all(path("path")).expect("mkdir"),
        "chmod" => {
            use std::os::unix::fs::PermissionsExt;
            let mode = u32::from_str_radix(step["mode"].as_str().expect("mode"), 8).expect("octal");
            fs::set_permissions(path("path"), fs::Permissions::from_mode(mode)).expect("chmod");
        }
        "symlink" => {
            std::os::unix::fs::symlink(step["target"].as_str().expect("target"), path("link"))
                .expect("symlink")
        }
        other => panic!("unknown setup step {other}"),
    }
}

/// Runs one scenario; `Err` says how it failed.
async fn run_scenario(dir: &Path) -> Result<(), String> {
    let ws = Workspace::new(&[]).map_err(|e| e.to_string())?;
    let root = ws.root();
    copy_tree(&dir.join("input"), &root);
    let rt = TestRuntime::new(&root).build();
    let calls =
        fs::read_to_string(dir.join("calls.jsonl")).map_err(|e| format!("calls.jsonl: {e}"))?;
    let expected_error = fs::read_to_string(dir.join("expected_error"))
        .ok()
        .map(|s| s.trim().to_string());
    let lines: Vec<&str> = calls.lines().filter(|l| !l.trim().is_empty()).collect();
    let root_str = root.display().to_string();
    for (i, line) in lines.iter().enumerate() {
        let step: Value = serde_json::from_str(line).map_err(|e| format!("line {}: {e}", i + 1))?;
        if step.get("setup").is_some() {
            setup_step(&root, &step);
            continue;
        }
        let tool = step["tool"].as_str().ok_or("a call needs `tool`")?;
        let input = substitute(&step["input"], &root_str);
        let result = call(&rt, tool, &input).await;
        let last = i + 1 == lines.len();
        match (&expected_error, last) {
            (Some(want), true) => {
                if result.ok {
                    return Err(format!(
                        "the last call ({tool}) succeeded; expected an error with `{want}`"
                    ));
                }
                if !result.text.contains(want.as_str()) {
                    return Err(format!(
                        "the error `{}` does not contain `{want}`",
                        result.text
                    ));
                }
            }
            _ if !result.ok => {
                return Err(format!("call {} ({tool}) failed: {}", i + 1, result.text));
            }
            _ => {}
        }
    }
    let want_dir = if dir.join("expected").exists() {
        dir.join("expected")
    } else {
        dir.join("input")
    };
    let (got, want) = (snapshot(&root), snapshot(&want_dir));
    if got != want {
        let mut diff = String::new();
        for (path, node) in &want {
            match got.get(path) {
                None => diff.push_str(&format!("  missing {}\n", path.display())),
                Some(g) if g != node => diff.push_str(&format!(
                    "  differs {}: got {:?}, want {:?}\n",
                    path.display(),
                    show(g),
                    show(node)
                )),
                _ => {}
            }
        }
        for path in got.keys().filter(|p| !want.contains_key(*p)) {
            diff.push_str(&format!("  unexpected {}\n", path.display()));
        }
        return Err(format!("the folder is not as expected:\n{diff}"));
    }
    Ok(())
}

fn show(node: &Node) -> String {
    match node {
        Node::File(bytes) => format!("{:?}", String::from_utf8_lossy(bytes)),
        Node::Link(t) => format!("-> {}", t.display()),
        Node::Dir => "folder".into(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_scenario_leaves_the_expected_tree() {
    let mut dirs: Vec<PathBuf> = fs::read_dir(scenarios_dir())
        .expect("scenarios folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("calls.jsonl").exists())
        .collect();
    dirs.sort();
    assert!(dirs.len() >= 40, "only {} scenarios", dirs.len());
    let mut failures = Vec::new();
    for dir in &dirs {
        if let Err(why) = run_scenario(dir).await {
            failures.push(format!(
                "{}: {why}",
                dir.file_name().unwrap_or_default().to_string_lossy()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} scenarios failed:\n{}",
        failures.len(),
        dirs.len(),
        failures.join("\n")
    );
}

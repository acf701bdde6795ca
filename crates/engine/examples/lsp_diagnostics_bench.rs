//! Diagnostics after an edit: the same change — one line that breaks a type, then the line restored — made ROUNDS
//! times through Tandem's Edit tool (the whole tool-call pipeline; the result comes back with the server's new
//! errors) and by a bare LSP client (`didChange` written by hand, timed to the server's `publishDiagnostics` for that
//! version, the first that holds the change's error or its absence), each on its own copy of the project and its own server process, interleaved in one run. Prints the
//! medians and the ratio Tandem / bare client per server. Usage: `lsp_diagnostics_bench SERVERS_DIR [ROUNDS]`, where
//! SERVERS_DIR is tests/lsp/node_modules.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tandem_engine::lsp::{LspManager, LspOptions, parse_config};
use tandem_engine::registry::builtin_tools;
use tandem_engine::testing::{TestRuntime, call};
use tandem_engine::tool::{FileStateStore, LanguageServers};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{ChildStdin, ChildStdout};

struct Case {
    name: &'static str,
    file: &'static str,
    language: &'static str,
    files: Vec<(&'static str, String)>,
    good: &'static str,
    bad: &'static str,
    /// What the error's message contains.
    expect: &'static str,
    config: Value,
}

fn cases(servers: &Path) -> Vec<Case> {
    let filler: String = (0..150)
        .map(|i| format!("def f{i}(x: int) -> int:\n    return x + {i}\n\n\n"))
        .collect();
    let ts_filler: String = (0..150)
        .map(|i| format!("export function f{i}(x: number): number {{\n  return x + {i};\n}}\n"))
        .collect();
    vec![
        Case {
            name: "pyright",
            file: "main.py",
            language: "python",
            files: vec![(
                "main.py",
                format!("{filler}def run() -> int:\n    return f1(2)\n"),
            )],
            good: "return f1(2)",
            bad: "return f1(\"two\")",
            expect: "Literal['two']",
            config: json!({"python": {"command": servers.join(".bin/pyright-langserver"), "args": ["--stdio"],
                                       "extensionToLanguage": {".py": "python"}}}),
        },
        Case {
            name: "typescript-language-server",
            file: "main.ts",
            language: "typescript",
            files: vec![
                (
                    "main.ts",
                    format!("{ts_filler}export const run: number = f1(2);\n"),
                ),
                (
                    "tsconfig.json",
                    "{\"compilerOptions\": {\"strict\": true}}\n".into(),
                ),
            ],
            good: "f1(2);",
            bad: "f1(\"two\");",
            expect: "not assignable",
            config: json!({"typescript": {"command": servers.join(".bin/typescript-language-server"),
                "args": ["--stdio"], "extensionToLanguage": {".ts": "typescript"},
                "initializationOptions": {"tsserver": {"path": servers.join("typescript/lib/tsserver.js"),
                                                        "useSyntaxServer": "never"}}}}),
        },
    ]
}

fn project(files: &[(&str, String)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).expect("write");
    }
    dir
}

/// A bare client: the server's process and streams, framing by hand.
struct Bare {
    _child: tokio::process::Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Bare {
    async fn send(&mut self, message: Value) {
        let body = serde_json::to_vec(&message).expect("json");
        let head = format!("Content-Length: {}\r\n\r\n", body.len());
        self.stdin.write_all(head.as_bytes()).await.expect("write");
        self.stdin.write_all(&body).await.expect("write");
        self.stdin.flush().await.expect("flush");
    }

    async fn read(&mut self) -> Value {
        let mut length = 0;
        loop {
            let mut line = String::new();
            self.stdout.read_line(&mut line).await.expect("read");
            let line = line.trim_end();
            if line.is_empty() {
                if length > 0 {
                    break;
                }
                continue;
            }
            if let Some(n) = line.strip_prefix("Content-Length: ") {
                length = n.parse().expect("length");
            }
        }
        let mut body = vec![0; length];
        self.stdout.read_exact(&mut body).await.expect("body");
        serde_json::from_slice(&body).expect("json")
    }

    /// Reads until `until` holds for a message, answering the server's own requests with null.
    async fn read_until(&mut self, until: impl Fn(&Value) -> bool) -> Value {
        loop {
            let m = self.read().await;
            if m.get("method").is_some() && m.get("id").is_some() {
                let id = m["id"].clone();
                let result = if m["method"] == "workspace/configuration" {
                    json!(vec![
                        Value::Null;
                        m["params"]["items"].as_array().map_or(0, Vec::len)
                    ])
                } else {
                    Value::Null
                };
                self.send(json!({"jsonrpc": "2.0", "id": id, "result": result}))
                    .await;
                continue;
            }
            if until(&m) {
                return m;
            }
        }
    }

    async fn start(config: &Value, root: &Path) -> Self {
        let server = config
            .as_object()
            .and_then(|o| o.values().next())
            .expect("server");
        let args: Vec<String> = server["args"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|s| s.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        let mut child = tokio::process::Command::new(server["command"].as_str().expect("command"))
            .args(args)
            .current_dir(root)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .expect("start the server");
        let mut bare = Self {
            stdin: child.stdin.take().expect("stdin"),
            stdout: BufReader::new(child.stdout.take().expect("stdout")),
            _child: child,
        };
        let uri = url::Url::from_file_path(root).expect("uri").to_string();
        bare.send(
            json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "processId": std::process::id(), "rootUri": uri,
            "workspaceFolders": [{"uri": uri, "name": "bench"}],
            "initializationOptions": server.get("initializationOptions"),
            "capabilities": {"workspace": {"configuration": true, "workspaceFolders": true},
                             "textDocument": {"publishDiagnostics": {"versionSupport": true},
                                              "synchronization": {"didSave": true}}}}}),
        )
        .await;
        bare.read_until(|m| m["id"] == 1).await;
        bare.send(json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
            .await;
        bare
    }
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

async fn run(case: &Case, rounds: usize) {
    // Tandem: the Edit tool through the pipeline, with the server's errors in its result.
    let ours = project(&case.files);
    let root = ours.path().canonicalize().expect("root");
    let (configs, problems) = parse_config(&case.config, &root);
    assert!(problems.is_empty(), "{problems:?}");
    let manager = Arc::new(LspManager::new(
        &root,
        configs,
        LspOptions {
            diagnostics_wait: Duration::from_secs(60),
            ..LspOptions::default()
        },
    ));
    let file_state = Arc::new(FileStateStore::default());
    file_state.set_language_servers(Some(manager.clone() as Arc<dyn LanguageServers>));
    let rt = TestRuntime::new(&root)
        .tools(builtin_tools())
        .file_state(file_state)
        .build();
    assert!(call(&rt, "Read", &json!({"file_path": case.file})).await.ok);

    // The bare client on its own copy.
    let theirs = project(&case.files);
    let bare_root = theirs.path().canonicalize().expect("root");
    let mut bare = Bare::start(&case.config, &bare_root).await;
    let path = bare_root.join(case.file);
    let uri = url::Url::from_file_path(&path).expect("uri").to_string();
    let good_text = std::fs::read_to_string(&path).expect("read");
    let bad_text = good_text.replace(case.good, case.bad);
    bare.send(
        json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uri, "languageId": case.language, "version": 1, "text": good_text}}}),
    )
    .await;
    let published_for = |uri: String| {
        move |m: &Value| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri.as_str()
        }
    };
    bare.read_until(published_for(uri.clone())).await;

    let mut tandem_times = Vec::new();
    let mut bare_times = Vec::new();
    let mut version = 1;
    // Round 0 warms both sides up (the first open, the first analysis) and is not counted.
    for round in 0..=rounds {
        for (from, to, breaks) in [(case.good, case.bad, true), (case.bad, case.good, false)] {
            let started = Instant::now();
            let r = call(
                &rt,
                "Edit",
                &json!({"file_path": case.file, "old_string": from, "new_string": to}),
            )
            .await;
            let tandem = started.elapsed();
            assert!(r.ok, "{}", r.text);
            assert_eq!(r.text.contains(case.expect), breaks, "{}", r.text);

            version += 1;
            let text = if breaks { &bad_text } else { &good_text };
            let started = Instant::now();
            bare.send(json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                "textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}}))
                .await;
            bare.send(
                json!({"jsonrpc": "2.0", "method": "textDocument/didSave", "params": {
                "textDocument": {"uri": uri}}}),
            )
            .await;
            // The server's own time: to the first publication for this version that says what the change did
            // (typescript-language-server publishes without versions, in stages).
            let expect = case.expect;
            bare.read_until(|m| {
                published_for(uri.clone())(m)
                    && m["params"]["version"].as_i64().is_none_or(|v| v >= version)
                    && m["params"]["diagnostics"].to_string().contains(expect) == breaks
            })
            .await;
            let theirs = started.elapsed();
            if breaks && round > 0 {
                tandem_times.push(tandem);
                bare_times.push(theirs);
            }
        }
    }
    let (t, b) = (median(tandem_times), median(bare_times));
    println!(
        "{:<28} Edit to its diagnostics {:>8.1} ms   bare client didChange to publishDiagnostics {:>8.1} ms   ratio {:.2}x",
        case.name,
        ms(t),
        ms(b),
        t.as_secs_f64() / b.as_secs_f64()
    );
}

#[tokio::main]
async fn main() {
    let mut args = std::env::args().skip(1);
    let servers = PathBuf::from(
        args.next()
            .expect("usage: lsp_diagnostics_bench SERVERS_DIR [ROUNDS]"),
    );
    let servers = servers.canonicalize().expect("servers folder");
    let rounds = args.next().and_then(|r| r.parse().ok()).unwrap_or(20);
    println!(
        "{rounds} rounds each (medians of the edits that break a type; target ratio at most 1.2x)"
    );
    for case in cases(&servers) {
        run(&case, rounds).await;
    }
}

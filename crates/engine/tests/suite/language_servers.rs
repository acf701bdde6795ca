//! Language servers against real ones — pyright and typescript-language-server, installed into tests/lsp by
//! scripts/install-deps: the LSP tool's operations on a small project, an Edit or Write that introduces a type
//! error getting the server's message (and one that does not, nothing), a server that crashes mid-request, one that
//! is not installed, errors that come after the bound reaching the mailbox. The diagnostics bounds are set far
//! beyond what a server needs, so the tests wait on the server's publication, not on time.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Value, json};
use tandem_engine::exec::ToolRuntime;
use tandem_engine::lsp::{LspManager, LspOptions, parse_config};
use tandem_engine::registry::builtin_tools;
use tandem_engine::tool::{FileStateStore, LanguageServers, erase};
use tandem_engine::tools::lsp::{HIDDEN_FILE, LspTool};

use tandem_engine::events::RecordingSink;
use tandem_engine::testing::{Project, TestRuntime, Workspace, call};
use tandem_protocol::{PermissionMode, SessionEvent, ToolDetail};

/// The installed servers' folder; a clear failure when they are missing.
fn servers() -> PathBuf {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/lsp/node_modules");
    assert!(
        dir.join(".bin/pyright-langserver").exists(),
        "{} is missing: run scripts/install-deps (it installs tests/lsp's npm packages)",
        dir.display()
    );
    dir.canonicalize().expect("servers folder")
}

fn config(root: &Path, servers: Value) -> LspManager {
    let (configs, problems) = parse_config(&servers, root);
    assert!(problems.is_empty(), "{problems:?}");
    LspManager::new(
        root,
        configs,
        LspOptions {
            diagnostics_wait: Duration::from_secs(120),
            late_wait: Duration::from_secs(1),
            request_timeout: Duration::from_secs(120),
            // A server that publishes without versions (typescript-language-server) is waited for until its
            // publication with the error, however long a loaded machine makes it.
            quiet: Duration::from_secs(120),
        },
    )
}

fn pyright(root: &Path) -> LspManager {
    let bin = servers().join(".bin/pyright-langserver");
    config(
        root,
        json!({"python": {"command": bin, "args": ["--stdio"], "extensionToLanguage": {".py": "python"}}}),
    )
}

fn typescript(root: &Path) -> LspManager {
    let dir = servers();
    config(
        root,
        json!({"typescript": {
            "command": dir.join(".bin/typescript-language-server"), "args": ["--stdio"],
            "extensionToLanguage": {".ts": "typescript"},
            "initializationOptions": {"tsserver": {
                "path": dir.join("typescript/lib/tsserver.js"),
                // Without the syntax-only server that answers while the project loads, answers are complete.
                "useSyntaxServer": "never"
            }}
        }}),
    )
}

/// A runtime with the built-in tools and the LSP tool over `manager`, whose servers hear of every change.
fn runtime(root: &Path, manager: LspManager) -> (ToolRuntime, Arc<LspManager>) {
    runtime_recorded(root, manager, RecordingSink::default())
}

/// [`runtime`], its events going to `events`.
fn runtime_recorded(
    root: &Path,
    manager: LspManager,
    events: RecordingSink,
) -> (ToolRuntime, Arc<LspManager>) {
    let manager = Arc::new(manager);
    let file_state = Arc::new(FileStateStore::default());
    file_state.set_language_servers(Some(manager.clone() as Arc<dyn LanguageServers>));
    let mut tools = builtin_tools();
    tools.push(erase(LspTool::new(manager.clone())));
    let rt = TestRuntime::new(root)
        .tools(tools)
        .file_state(file_state)
        .events(Arc::new(events))
        .build();
    (rt, manager)
}

async fn lsp(rt: &ToolRuntime, op: &str, file: &str, line: u32, character: u32) -> String {
    let r = call(
        rt,
        "LSP",
        &json!({"operation": op, "filePath": file, "line": line, "character": character}),
    )
    .await;
    assert!(r.ok, "{op} failed: {}", r.text);
    r.text
}

const LIB_PY: &str = "def add_one(x: int) -> int:\n    return x + 1\n";
const MAIN_PY: &str = "from lib import add_one\n\n\ndef run() -> int:\n    return add_one(2)\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pyright_answers_the_lsp_tool_and_reports_the_errors_an_edit_introduced() {
    let ws = Workspace::new(&[("lib.py", LIB_PY), ("main.py", MAIN_PY)]).expect("workspace");
    let root = ws.root();
    let events = RecordingSink::default();
    let (rt, _manager) = runtime_recorded(&root, pyright(&root), events.clone());

    let definition = lsp(&rt, "goToDefinition", "main.py", 5, 12).await;
    assert!(definition.contains("lib.py:1:5"), "{definition}");
    let references = lsp(&rt, "findReferences", "lib.py", 1, 5).await;
    assert!(
        references.contains("in 2 files")
            && references.contains("main.py:")
            && references.contains("line 5, character 12"),
        "{references}"
    );
    let hover = lsp(&rt, "hover", "main.py", 5, 12).await;
    assert!(
        hover.contains("add_one") && hover.contains("int"),
        "{hover}"
    );
    let symbols = lsp(&rt, "documentSymbol", "lib.py", 1, 1).await;
    assert!(symbols.contains("add_one (function)"), "{symbols}");
    let incoming = lsp(&rt, "incomingCalls", "lib.py", 1, 5).await;
    assert!(
        incoming.contains("Calls to add_one") && incoming.contains("run (function)"),
        "{incoming}"
    );

    // An edit that introduces a type error hears of it with its result.
    let read = call(&rt, "Read", &json!({"file_path": "main.py"})).await;
    assert!(read.ok);
    let edit = call(
        &rt,
        "Edit",
        &json!({"file_path": "main.py", "old_string": "return add_one(2)", "new_string": "return add_one(\"two\")"}),
    )
    .await;
    assert!(edit.ok, "{}", edit.text);
    assert!(
        edit.text.contains("reports 1 new error in main.py")
            && edit.text.contains("line 5, column 20")
            && edit.text.contains("\"Literal['two']\"")
            && edit.text.contains("(Pyright)"),
        "{}",
        edit.text
    );
    // The window gets the same words on the edit's row.
    let on_row: Vec<Option<String>> = events
        .events()
        .iter()
        .filter_map(|e| match e {
            SessionEvent::ToolCallResult {
                detail: Some(ToolDetail::FileChange { diagnostics, .. }),
                ..
            } => Some(diagnostics.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(on_row.len(), 1, "{on_row:?}");
    assert!(
        on_row[0].as_deref().is_some_and(|d| d.contains("reports 1 new error in main.py")
            && edit.text.ends_with(d)),
        "{on_row:?}"
    );
    // The next edit leaves that error where it is: nothing new to report.
    let edit = call(
        &rt,
        "Edit",
        &json!({"file_path": "main.py", "old_string": "def run() -> int:", "new_string": "def run() -> int:  # entry"}),
    )
    .await;
    assert!(edit.ok, "{}", edit.text);
    assert!(!edit.text.contains("new error"), "{}", edit.text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typescript_answers_and_a_write_that_breaks_a_type_gets_the_message() {
    let ws = Workspace::new(&[
        (
            "util.ts",
            "export function twice(n: number): number {\n  return n * 2;\n}\n",
        ),
        (
            "app.ts",
            "import { twice } from \"./util\";\n\nexport const four: number = twice(2);\n",
        ),
        (
            "tsconfig.json",
            "{\"compilerOptions\": {\"strict\": true}, \"include\": [\"*.ts\"]}\n",
        ),
    ])
    .expect("workspace");
    let root = ws.root();
    let (rt, _manager) = runtime(&root, typescript(&root));

    let definition = lsp(&rt, "goToDefinition", "app.ts", 3, 29).await;
    assert!(definition.contains("util.ts:1:17"), "{definition}");
    let hover = lsp(&rt, "hover", "app.ts", 3, 29).await;
    assert!(hover.contains("twice(n: number): number"), "{hover}");
    let references = lsp(&rt, "findReferences", "util.ts", 1, 17).await;
    assert!(
        references.contains("app.ts:") && references.contains("util.ts:"),
        "{references}"
    );

    let read = call(&rt, "Read", &json!({"file_path": "app.ts"})).await;
    assert!(read.ok);
    let write = call(
        &rt,
        "Write",
        &json!({"file_path": "app.ts", "content": "import { twice } from \"./util\";\n\nexport const four: string = twice(2);\n"}),
    )
    .await;
    assert!(write.ok, "{}", write.text);
    assert!(
        write.text.contains("reports 1 new error in app.ts")
            && write
                .text
                .contains("Type 'number' is not assignable to type 'string'")
            && write.text.contains("[2322]"),
        "{}",
        write.text
    );
}

/// A server that answers `initialize`, then dies with a message when asked for a hover.
const CRASHING_SERVER: &str = r#"
let buf = Buffer.alloc(0);
const send = (o) => { const b = Buffer.from(JSON.stringify(o)); process.stdout.write(`Content-Length: ${b.length}\r\n\r\n`); process.stdout.write(b); };
process.stdin.on('data', (d) => {
  buf = Buffer.concat([buf, d]);
  for (;;) {
    const end = buf.indexOf('\r\n\r\n');
    if (end < 0) return;
    const n = Number(/Content-Length: (\d+)/i.exec(buf.subarray(0, end).toString())[1]);
    if (buf.length < end + 4 + n) return;
    const m = JSON.parse(buf.subarray(end + 4, end + 4 + n).toString());
    buf = buf.subarray(end + 4 + n);
    if (m.method === 'initialize') send({jsonrpc: '2.0', id: m.id, result: {capabilities: {hoverProvider: true, textDocumentSync: 1}}});
    if (m.method === 'textDocument/hover') process.stderr.write('boom: the hover handler crashed\n', () => process.exit(3));
  }
});
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_crashes_mid_request_ends_the_call_with_why_and_is_restarted_then_given_up() {
    let ws =
        Workspace::new(&[("server.js", CRASHING_SERVER), ("a.fake", "x\n")]).expect("workspace");
    let root = ws.root();
    let (configs, _) = parse_config(
        &json!({"fake": {"command": "node", "args": [root.join("server.js")],
                          "extensionToLanguage": {".fake": "fake"}, "maxRestarts": 1}}),
        &root,
    );
    let (rt, manager) = runtime(
        &root,
        LspManager::new(&root, configs, LspOptions::default()),
    );
    let hover = |rt: &ToolRuntime| {
        let rt = rt.clone();
        async move {
            call(
                &rt,
                "LSP",
                &json!({"operation": "hover", "filePath": "a.fake", "line": 1, "character": 1}),
            )
            .await
        }
    };
    let first = hover(&rt).await;
    assert!(!first.ok);
    assert!(
        first.text.contains("the language server `fake` stopped")
            && first.text.contains("boom: the hover handler crashed"),
        "{}",
        first.text
    );
    // Restarted (after its backoff) on next use, it crashes again; with maxRestarts 1 it is then left off.
    let second = hover(&rt).await;
    assert!(
        !second.ok && second.text.contains("stopped"),
        "{}",
        second.text
    );
    let third = hover(&rt).await;
    assert!(
        !third.ok
            && third
                .text
                .contains("crashed 2 times and is not restarted again"),
        "{}",
        third.text
    );
    assert_eq!(manager.crashes("fake"), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_server_is_a_notice_and_the_edit_still_happens() {
    let ws = Workspace::new(&[("a.py", "x = 1\n")]).expect("workspace");
    let root = ws.root();
    let manager = config(
        &root,
        json!({"python": {"command": root.join("no-such-server"), "extensionToLanguage": {".py": "python"}}}),
    );
    let (rt, _manager) = runtime(&root, manager);
    let read = call(&rt, "Read", &json!({"file_path": "a.py"})).await;
    assert!(read.ok);
    let edit = call(
        &rt,
        "Edit",
        &json!({"file_path": "a.py", "old_string": "x = 1", "new_string": "x = 2"}),
    )
    .await;
    assert!(edit.ok, "{}", edit.text);
    assert!(
        edit.text
            .contains("the language server `python` could not start")
            && edit.text.contains("no diagnostics"),
        "{}",
        edit.text
    );
    assert_eq!(
        std::fs::read_to_string(root.join("a.py")).expect("read"),
        "x = 2\n"
    );
    let hover = call(
        &rt,
        "LSP",
        &json!({"operation": "hover", "filePath": "a.py", "line": 1, "character": 1}),
    )
    .await;
    assert!(
        !hover.ok && hover.text.contains("could not start"),
        "{}",
        hover.text
    );
    let other = call(
        &rt,
        "LSP",
        &json!({"operation": "hover", "filePath": "server.rs", "line": 1, "character": 1}),
    )
    .await;
    assert!(!other.ok, "{}", other.text);
}

/// The tools a session on `root` offers the model, each with its description.
fn offered(root: &Path) -> Vec<(String, String)> {
    let config = super::common::fake_config("http://127.0.0.1:9");
    let model: Arc<dyn tandem_engine::model::Model> =
        Arc::new(tandem_engine::model::AnthropicModel::new(config).expect("client"));
    let session = tandem_engine::session::Session::builder(root)
        .expect("builder")
        .model_client(model)
        .build()
        .expect("session");
    session
        .runtime()
        .offered_specs()
        .into_iter()
        .map(|s| (s.name, s.description))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tool_is_offered_only_when_switched_on_in_the_settings() {
    if std::env::var_os(tandem_engine::lsp::ENABLE_ENV).is_some() {
        // The environment wins over the settings files this test writes.
        return;
    }
    let off = Workspace::new(&[]).expect("workspace");
    let tools = offered(&off.root());
    assert!(!tools.is_empty());
    assert!(
        tools
            .iter()
            .all(|(name, description)| name != "LSP" && !description.contains("LSP")),
        "{tools:?}"
    );
    let on = Workspace::new(&[(
        ".claude/settings.json",
        r#"{"env": {"ENABLE_LSP_TOOL": "1"}}"#,
    )])
    .expect("workspace");
    let tools = offered(&on.root());
    let lsp = tools.iter().find(|(name, _)| name == "LSP");
    assert!(
        lsp.is_some_and(|(_, d)| d.contains("goToDefinition") && d.contains("incomingCalls")),
        "{tools:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn errors_published_after_the_bound_reach_the_agent_with_its_next_request() {
    let ws = Workspace::new(&[("lib.py", LIB_PY), ("main.py", MAIN_PY)]).expect("workspace");
    let root = ws.root();
    let bin = servers().join(".bin/pyright-langserver");
    let (configs, _) = parse_config(
        &json!({"python": {"command": bin, "args": ["--stdio"], "extensionToLanguage": {".py": "python"}}}),
        &root,
    );
    // No time at all for the result: whatever the server says comes later.
    let manager = LspManager::new(
        &root,
        configs,
        LspOptions {
            diagnostics_wait: Duration::ZERO,
            late_wait: Duration::from_secs(120),
            ..LspOptions::default()
        },
    );
    let (mut rt, _manager) = runtime(&root, manager);
    let mailbox = Arc::new(tandem_engine::tool::Mailbox::default());
    rt.mailbox = Some(mailbox.clone());
    assert!(call(&rt, "Read", &json!({"file_path": "main.py"})).await.ok);
    let edit = call(
        &rt,
        "Edit",
        &json!({"file_path": "main.py", "old_string": "return add_one(2)", "new_string": "return add_one(\"two\")"}),
    )
    .await;
    assert!(edit.ok && !edit.text.contains("new error"), "{}", edit.text);
    let cancel = tokio_util::sync::CancellationToken::new();
    assert!(mailbox.wait_for_mail(&cancel).await);
    let mail = mailbox.take().join("\n");
    assert!(
        mail.contains("reports 1 new error in main.py") && mail.contains("\"Literal['two']\""),
        "{mail}"
    );
}

/// A place in a file a deny rule keeps from Read is not named in the LSP tool's answers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn places_in_files_the_deny_rules_hide_are_not_named() {
    let p = Project::new().expect("project");
    std::fs::write(p.root.join("lib.py"), LIB_PY).expect("write");
    std::fs::write(p.root.join("main.py"), MAIN_PY).expect("write");
    let manager = Arc::new(pyright(&p.root));
    let file_state = Arc::new(FileStateStore::default());
    file_state.set_language_servers(Some(manager.clone() as Arc<dyn LanguageServers>));
    let mut tools = builtin_tools();
    tools.push(erase(LspTool::new(manager.clone())));
    let rt = TestRuntime::new(&p.root)
        .tools(tools)
        .file_state(file_state)
        .permissions(p.ctx(&[("deny", "Read(./main.py)")], PermissionMode::Default))
        .build();
    // The server knows main.py (the person's editor, or an earlier turn, had it open).
    let cancel = tokio_util::sync::CancellationToken::new();
    manager
        .open(&p.root.join("main.py"), MAIN_PY, &cancel)
        .await
        .expect("main.py opened");

    let references = lsp(&rt, "findReferences", "lib.py", 1, 5).await;
    assert!(
        references.contains(HIDDEN_FILE) && !references.contains("main.py"),
        "{references}"
    );
    let incoming = lsp(&rt, "incomingCalls", "lib.py", 1, 5).await;
    assert!(!incoming.contains("main.py"), "{incoming}");
    let denied = call(
        &rt,
        "LSP",
        &json!({"operation": "hover", "filePath": "main.py", "line": 5, "character": 12}),
    )
    .await;
    assert!(
        !denied.ok,
        "the hidden file itself is not asked about: {}",
        denied.text
    );
}

//! The engine's log can be read when several things run at once: a turn, each tool call, each hook and each
//! sub-agent run in spans that name them, so every line a tool call or a hook logs says which turn, which call and
//! which hook it belongs to — also for two calls of the same tool running side by side. Each permission decision is
//! logged with what decided it, and each call to an MCP server names the server and the tool.

use std::cell::RefCell;
use std::io::Write;
use std::sync::{Arc, Mutex, OnceLock};

use serde_json::json;
use tandem_engine::events::RecordingSink;
use tandem_engine::testing::{Script, ScriptBlock, ScriptedApprover, ScriptedTurn, Workspace};
use tandem_protocol::ApprovalChoice;
use tracing_subscriber::filter::{LevelFilter, dynamic_filter_fn};
use tracing_subscriber::layer::{Layer, SubscriberExt};

use tandem_engine::exec::run_tool_use;
use tandem_engine::testing::{Project, TestRuntime};
use tandem_protocol::PermissionMode;
use tokio_util::sync::CancellationToken;

use super::common::{server, session};
use super::mcp_support::{self, patient, ready, stdio};

/// Log output kept in memory.
#[derive(Clone, Default)]
struct Log(Arc<Mutex<Vec<u8>>>);

impl Write for Log {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if let Ok(mut kept) = self.0.lock() {
            kept.extend_from_slice(buf);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

thread_local! {
    /// Where the lines logged on this thread go while a test captures them.
    static CAPTURING: RefCell<Option<Log>> = const { RefCell::new(None) };
}

/// Writes to the log of the thread it is made on (or nowhere).
struct ThreadLog(Option<Log>);

impl Write for ThreadLog {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match &mut self.0 {
            Some(log) => log.write(buf),
            None => Ok(buf.len()),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Ends a capture when dropped.
struct Capture;

impl Drop for Capture {
    fn drop(&mut self) {
        CAPTURING.with(|c| c.borrow_mut().take());
    }
}

impl Log {
    /// Captures the debug-level lines logged on the current thread (the runtime of a tokio test runs every task on
    /// it) until the guard is dropped. One subscriber for the whole test binary, enabled per thread: a thread-local
    /// subscriber races with other tests' threads over the callsites' cached interest and loses lines.
    fn capture(&self) -> Capture {
        static INSTALLED: OnceLock<()> = OnceLock::new();
        INSTALLED.get_or_init(|| {
            let layer = tracing_subscriber::fmt::layer()
                .with_writer(|| ThreadLog(CAPTURING.with(|c| c.borrow().clone())))
                .with_ansi(false)
                // Asked on every span and event (a filter of metadata alone would be cached per callsite, for
                // whichever thread reached it first).
                .with_filter(
                    dynamic_filter_fn(|meta, _| {
                        *meta.level() <= tracing::Level::DEBUG
                            && CAPTURING.with(|c| c.borrow().is_some())
                    })
                    .with_max_level_hint(LevelFilter::DEBUG),
                );
            // Another test binary's subscriber cannot be here: this one is the only one in the suite.
            let _ =
                tracing::subscriber::set_global_default(tracing_subscriber::registry().with(layer));
        });
        CAPTURING.with(|c| *c.borrow_mut() = Some(self.clone()));
        // Callsites first reached before the subscriber was installed were cached as unwanted.
        tracing::callsite::rebuild_interest_cache();
        Capture
    }

    fn lines(&self) -> Vec<String> {
        let kept = self.0.lock().map(|k| k.clone()).unwrap_or_default();
        String::from_utf8_lossy(&kept)
            .lines()
            .map(str::to_string)
            .collect()
    }
}

/// The lines of `log` that contain every one of `parts`.
fn lines_with<'a>(log: &'a [String], parts: &[&str]) -> Vec<&'a String> {
    log.iter()
        .filter(|line| parts.iter().all(|p| line.contains(p)))
        .collect()
}

#[tokio::test]
async fn turns_tool_calls_hooks_and_sub_agents_are_named_on_every_line_they_log() {
    let log = Log::default();
    let _guard = log.capture();

    let ws = Workspace::new(&[("a.txt", "a\n"), ("b.txt", "b\n")]).expect("workspace");
    std::fs::create_dir_all(ws.root().join(".claude")).expect("mkdir");
    std::fs::write(
        ws.root().join(".claude/settings.json"),
        json!({"hooks": {"PreToolUse": [{"matcher": "Read",
            "hooks": [{"type": "command", "command": "cat > /dev/null"}]}]}})
        .to_string(),
    )
    .expect("settings");
    let fake = server(Script::turns([
        // Two calls of one tool side by side.
        ScriptedTurn::new(vec![
            ScriptBlock::ToolUse {
                id: "r1".into(),
                name: "Read".into(),
                input: json!({"file_path": "a.txt"}),
            },
            ScriptBlock::ToolUse {
                id: "r2".into(),
                name: "Read".into(),
                input: json!({"file_path": "b.txt"}),
            },
        ]),
        ScriptedTurn::text("read both"),
        ScriptedTurn::tool_use(
            "a1",
            "Agent",
            json!({"description": "Look", "prompt": "look", "subagent_type": "Explore"}),
        ),
        ScriptedTurn::text("looked"),
        ScriptedTurn::text("done"),
    ]))
    .await;
    let s = session(
        &ws.root(),
        &fake,
        Arc::new(ScriptedApprover::new([], ApprovalChoice::Allow)),
        RecordingSink::default(),
    );
    s.settings().assume_trusted();
    s.send("read them").await.expect("turn");
    s.send("look around").await.expect("turn");

    let lines = log.lines();
    let turn = format!("turn{{session={} prompt=", s.id());
    for id in ["r1", "r2"] {
        let call = format!("tool_call{{tool=Read id={id}}}");
        assert_eq!(
            lines_with(&lines, &[&turn, &call, "tool call ended"]).len(),
            1,
            "one end of call {id} inside its turn in:\n{}",
            lines.join("\n")
        );
        assert_eq!(
            lines_with(
                &lines,
                &[
                    &call,
                    "hooks{event=PreToolUse",
                    "hook{command=cat > /dev/null}",
                    "hook ended outcome=exit 0",
                ],
            )
            .len(),
            1,
            "one hook run inside call {id} in:\n{}",
            lines.join("\n")
        );
    }
    let agent = lines_with(
        &lines,
        &[
            "tool_call{tool=Agent id=a1}:sub_agent{agent_type=Explore tool_use=a1 agent_id=",
            &turn,
            "turn ended",
        ],
    );
    assert_eq!(
        agent.len(),
        1,
        "the sub-agent's turn in:\n{}",
        lines.join("\n")
    );
    assert_eq!(
        lines_with(&lines, &[&turn, "turn ended"]).len(),
        3,
        "two turns of the session and one of its sub-agent in:\n{}",
        lines.join("\n")
    );
}

/// A row: the rules, the tool and its input, the person's answer, and the parts the call's decision line must hold.
type DecisionRow<'a> = (
    &'a [(&'a str, &'a str)],
    &'a str,
    serde_json::Value,
    ApprovalChoice,
    &'a [&'a str],
);

#[tokio::test]
async fn each_permission_decision_is_logged_in_its_call_with_what_decided_it() {
    let project = Project::new().expect("project");
    let readme = project.path("README.md");
    let settings = project
        .root
        .join(".claude/settings.json")
        .display()
        .to_string();
    let rule_source = format!("source=\"{settings}\"");
    let rows: &[DecisionRow<'_>] = &[
        (
            &[],
            "Read",
            json!({"file_path": readme}),
            ApprovalChoice::Deny,
            &["decision=allow", "decided_by=working_directories"],
        ),
        (
            &[("deny", "Read(README.md)")],
            "Read",
            json!({"file_path": readme}),
            ApprovalChoice::Deny,
            &[
                "decision=deny",
                "decided_by=rule",
                "rule=\"Read(README.md)\"",
                &rule_source,
            ],
        ),
        (
            &[],
            "Bash",
            json!({"command": "touch made.txt"}),
            ApprovalChoice::Deny,
            &["decision=ask", "decided_by=mode"],
        ),
    ];
    let mut failures = Vec::new();
    for (i, (rules, tool, input, answer, parts)) in rows.iter().enumerate() {
        let log = Log::default();
        let guard = log.capture();
        let rt = TestRuntime::new(&project.root)
            .permissions(project.ctx(rules, PermissionMode::Default))
            .approver(ScriptedApprover::new([], *answer))
            .build();
        let id = format!("call{i}");
        run_tool_use(&rt, &id, tool, input, &CancellationToken::new()).await;
        drop(guard);
        let lines = log.lines();
        let call = format!("tool_call{{tool={tool} id={id}}}");
        let mut wanted = vec![call.as_str(), "permission decided"];
        wanted.extend(parts.iter());
        if lines_with(&lines, &wanted).len() != 1 {
            failures.push(format!(
                "row {i}: no one line with {wanted:?} in:\n{}",
                lines.join("\n")
            ));
        }
        // Only a call that asks logs the person's answer.
        let asked = parts.contains(&"decision=ask");
        let answered = lines_with(
            &lines,
            &[&call, "permission answered by the person answer=deny"],
        );
        if answered.len() != usize::from(asked) {
            failures.push(format!(
                "row {i}: {} answer lines, want {} in:\n{}",
                answered.len(),
                usize::from(asked),
                lines.join("\n")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[tokio::test]
async fn a_call_to_an_mcp_server_names_the_server_and_the_tool() {
    let project = Project::new().expect("project");
    let (manager, _) = mcp_support::start(&project.root, json!({"t": stdio(&[])}), patient());
    ready(&manager, "t").await;
    let (rt, _) = mcp_support::runtime(&project.root, &manager);
    let log = Log::default();
    let guard = log.capture();
    run_tool_use(
        &rt,
        "m1",
        "mcp__t__echo",
        &json!({"text": "hello"}),
        &CancellationToken::new(),
    )
    .await;
    drop(guard);
    let lines = log.lines();
    assert_eq!(
        lines_with(
            &lines,
            &[
                "tool_call{tool=mcp__t__echo id=m1}:mcp_call{server=t tool=echo}",
                "MCP tool call ended ok=true",
            ],
        )
        .len(),
        1,
        "the call's end in:\n{}",
        lines.join("\n")
    );
}

#[test]
fn a_new_store_makes_its_search_index_quietly_and_a_damaged_one_is_rebuilt_with_a_warning() {
    let log = Log::default();
    let _guard = log.capture();
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("sessions.db");

    drop(tandem_engine::store::SessionStore::open(&path).expect("a new store"));
    let lines = log.lines();
    assert_eq!(
        lines_with(&lines, &["making the search index"]).len(),
        1,
        "{lines:#?}"
    );
    assert!(lines_with(&lines, &["WARN"]).is_empty(), "{lines:#?}");

    let conn = rusqlite::Connection::open(&path).expect("open the file");
    conn.execute_batch("DROP TABLE search_index_idx")
        .expect("damage the index");
    drop(conn);
    drop(tandem_engine::store::SessionStore::open(&path).expect("the damaged store"));
    let lines = log.lines();
    assert_eq!(
        lines_with(&lines, &["WARN", "rebuilding the search index"]).len(),
        1,
        "{lines:#?}"
    );
}

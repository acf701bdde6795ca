//! The window's terminal panel and TerminalCapture (`TERMINAL_PANEL`): a real shell in a real PTY whose colours
//! and cursor moves TerminalCapture reads as the interpreted screen, its scrollback's last lines, what runs in it,
//! the shell and its jobs killed when the panel closes; no panel (none opened, a command-line run) is a clear error;
//! the tool offered only with the switch on; a whole turn in which the model reads the panel; and its permission,
//! a read that asks unless a `TerminalCapture` rule allows it.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::json;
use tandem_engine::events::RecordingSink;
use tandem_engine::model::Model;
use tandem_engine::permission::{check_call, parse_rule};
use tandem_engine::session::Session;
use tandem_engine::settings::RuleBehavior;
use tandem_engine::testing::{
    CallResult, Project, Script, ScriptedApprover, ScriptedTurn, Workspace, call,
};
use tandem_engine::tool::erase;
use tandem_engine::tools::features::Features;
use tandem_engine::tools::terminal_panel::{
    Heard, PanelHost, PanelSlot, TerminalCaptureTool, TerminalPanel,
};
use tandem_protocol::{ApprovalChoice, DecisionBehavior, PermissionMode};
use tokio::sync::Notify;

use super::common::{fake_config, fake_model, server};

const ON: Features = Features {
    terminal_panel: true,
    ..Features::OFF
};

/// A session on `root` answered by `model` with the panel's switch as `features` says, in the window (`window`)
/// or a command-line run, allowing whatever asks.
fn session(root: &Path, model: Arc<dyn Model>, features: Features, window: bool) -> Session {
    Session::builder(root)
        .expect("folder")
        .model_client(model)
        .model(fake_config("http://127.0.0.1:9"))
        .mode(PermissionMode::Default)
        .approver(Arc::new(ScriptedApprover::new([], ApprovalChoice::Allow)))
        .events(Arc::new(RecordingSink::default()))
        .features(features)
        .window_panel(window)
        .build()
        .expect("session")
}

fn unreachable_model() -> Arc<dyn Model> {
    Arc::new(
        tandem_engine::model::AnthropicModel::new(fake_config("http://127.0.0.1:9"))
            .expect("client"),
    )
}

/// What the window would have played: the raw output, and a wake-up for each chunk.
#[derive(Clone, Default)]
struct Played {
    bytes: Arc<Mutex<Vec<u8>>>,
    more: Arc<Notify>,
}

impl Played {
    fn listener(&self) -> tandem_engine::tools::terminal_panel::Listener {
        let this = self.clone();
        Box::new(move |heard| {
            if let Heard::Output(bytes) = heard {
                this.bytes
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .extend_from_slice(bytes);
            }
            this.more.notify_one();
        })
    }

    /// Waits (at most a minute) until `done` holds of the panel, checking it after each output.
    async fn until(
        &self,
        panel: &TerminalPanel,
        what: &str,
        done: impl Fn(&TerminalPanel) -> bool,
    ) {
        let waited = tokio::time::timeout(Duration::from_secs(60), async {
            while !done(panel) {
                // Output, or the foreground job changing, comes with more output or none: check again then.
                let _ =
                    tokio::time::timeout(Duration::from_millis(200), self.more.notified()).await;
            }
        })
        .await;
        assert!(
            waited.is_ok(),
            "{what} never showed: {:?}",
            panel.snapshot().rows
        );
    }
}

/// Opens the panel of `s` with `sh` (a plain prompt) and waits for its prompt.
async fn open(s: &Session, heard: &Played) -> Arc<TerminalPanel> {
    let opened = s
        .terminal_panel()
        .open_with(Some("sh".into()), 24, 80, heard.listener())
        .expect("the panel opens");
    assert!(opened.started);
    let panel = s.terminal_panel().current().expect("open");
    heard
        .until(&panel, "the prompt", |p| {
            p.snapshot().rows.iter().any(|r| prompt(r))
        })
        .await;
    panel
}

/// Whether `row` is `sh`'s prompt (`#` for root).
fn prompt(row: &str) -> bool {
    row.starts_with('$') || row.starts_with('#')
}

async fn capture(s: &Session, input: serde_json::Value) -> CallResult {
    call(s.runtime(), "TerminalCapture", &input).await
}

/// Whether the process `pid` is gone (or only a zombie waiting to be reaped).
fn gone(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit(')')
            .next()
            .is_some_and(|rest| rest.trim_start().starts_with('Z')),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn capture_reads_the_panels_screen_with_colours_and_cursor_moves_applied() {
    let ws = Workspace::new(&[]).expect("workspace");
    let s = session(&ws.root(), unreachable_model(), ON, true);
    let heard = Played::default();
    let panel = open(&s, &heard).await;
    // Red text, then "abc", two columns back, "x" over "b", and green text over "c".
    s.terminal_panel()
        .type_bytes(b"printf '\\033[31mred\\033[0m abc\\033[2Dx\\033[1;32mgreen\\033[0m\\n'\n")
        .expect("typed");
    heard
        .until(&panel, "the printed line", |p| {
            p.snapshot().rows.iter().any(|r| r == "red axgreen")
        })
        .await;
    let raw = String::from_utf8_lossy(&heard.bytes.lock().expect("bytes")).into_owned();
    assert!(
        raw.contains("\u{1b}[31mred"),
        "the window got the raw escapes: {raw:?}"
    );

    let screen = capture(&s, json!({})).await;
    assert!(screen.ok, "{screen:?}");
    assert!(
        screen.text.lines().any(|l| l == "red axgreen"),
        "{}",
        screen.text
    );
    assert!(
        !screen.text.contains('\u{1b}'),
        "no raw escapes: {}",
        screen.text
    );
    assert!(
        screen.text.starts_with(
            "The person's terminal panel (`sh`), 24x80: the shell waits at its prompt;"
        ),
        "{}",
        screen.text
    );
    assert!(
        screen.text.contains("The visible screen (rows 1-"),
        "{}",
        screen.text
    );

    // Resizing the panel resizes what is read.
    s.terminal_panel().resize(10, 50).expect("resized");
    let small = capture(&s, json!({})).await;
    assert!(small.text.contains("10x50"), "{}", small.text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn capture_reads_the_last_lines_of_scrollback_and_what_runs() {
    let ws = Workspace::new(&[]).expect("workspace");
    let s = session(&ws.root(), unreachable_model(), ON, true);
    let heard = Played::default();
    let panel = open(&s, &heard).await;
    s.terminal_panel()
        .type_bytes(b"seq 1 300\n")
        .expect("typed");
    heard
        .until(&panel, "the last number", |p| {
            p.snapshot().rows.iter().any(|r| r == "300")
        })
        .await;
    heard
        .until(&panel, "the prompt after it", |p| {
            let rows = p.snapshot().rows;
            let used = rows.iter().rposition(|r| !r.is_empty()).unwrap_or(0);
            prompt(&rows[used])
        })
        .await;

    let screen = capture(&s, json!({})).await;
    assert!(
        !screen.text.lines().any(|l| l == "100"),
        "the screen holds the tail only: {}",
        screen.text
    );

    let last = capture(&s, json!({"lines": 150})).await;
    assert!(last.ok, "{last:?}");
    assert!(
        last.text
            .contains("The last 150 lines (scrollback, then the screen):"),
        "{}",
        last.text
    );
    let body: Vec<&str> = last.text.lines().skip(2).collect();
    assert_eq!(body.len(), 150, "{}", last.text);
    let numbers: Vec<&str> = body
        .iter()
        .copied()
        .filter(|l| l.parse::<u32>().is_ok())
        .collect();
    let want: Vec<String> = (numbers[0].parse::<u32>().expect("n")..=300)
        .map(|n| n.to_string())
        .collect();
    assert_eq!(numbers, want, "consecutive lines up to 300");
    assert!(numbers.len() >= 145, "{}", last.text);

    let all = capture(&s, json!({"lines": 2000})).await;
    assert!(all.text.contains("All "), "{}", all.text);
    assert!(
        all.text.lines().any(|l| l == "1"),
        "the first line kept: {}",
        all.text
    );

    for bad in [
        json!({"lines": 0}),
        json!({"lines": 2001}),
        json!({"rows": 3}),
    ] {
        let refused = capture(&s, bad.clone()).await;
        assert!(!refused.ok, "{bad}: {refused:?}");
    }

    // A program in the foreground is named; a job in the background and the shell die when the panel closes.
    s.terminal_panel()
        .type_bytes(b"sleep 1000 & echo job=$!\n")
        .expect("typed");
    heard
        .until(&panel, "the job's pid", |p| {
            p.snapshot().rows.iter().any(|r| r.starts_with("job="))
        })
        .await;
    let job: u32 = panel
        .snapshot()
        .rows
        .iter()
        .find_map(|r| r.strip_prefix("job=").and_then(|p| p.trim().parse().ok()))
        .expect("a pid");
    s.terminal_panel()
        .type_bytes(b"sleep 999\n")
        .expect("typed");
    heard
        .until(&panel, "sleep in the foreground", |p| {
            p.running_program().as_deref() == Some("sleep")
        })
        .await;
    let running = capture(&s, json!({})).await;
    assert!(
        running.text.contains("`sleep` is running in it"),
        "{}",
        running.text
    );

    let shell = panel.pid();
    drop(panel);
    assert!(s.terminal_panel().close());
    tokio::time::timeout(Duration::from_secs(60), async {
        while !(gone(job) && gone(shell)) {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await
    .expect("the shell and its background job are killed");
    let closed = capture(&s, json!({})).await;
    assert!(
        !closed.ok && closed.text.contains("has not opened a terminal"),
        "{closed:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_panel_capture_says_why_and_the_switch_decides_whether_it_is_offered() {
    let ws = Workspace::new(&[]).expect("workspace");
    // The window, with no panel opened.
    let window = session(&ws.root(), unreachable_model(), ON, true);
    let none = capture(&window, json!({})).await;
    assert!(!none.ok, "{none:?}");
    assert!(
        none.text.contains("the person has not opened a terminal"),
        "{}",
        none.text
    );

    // A command-line run lists the tool, but there is no panel.
    let cli = session(&ws.root(), unreachable_model(), ON, false);
    let listed = cli
        .tool_list()
        .into_iter()
        .find(|t| t.name == "TerminalCapture")
        .expect("listed");
    assert!(listed.offered, "{listed:?}");
    let none = capture(&cli, json!({"lines": 5})).await;
    assert!(!none.ok, "{none:?}");
    assert!(
        none.text
            .contains("no terminal panel in a command-line run"),
        "{}",
        none.text
    );
    assert!(cli.terminal_panel().open(24, 80, Box::new(|_| {})).is_err());
    assert!(!cli.info().terminal_panel);
    assert!(window.info().terminal_panel);

    // With the switch off it is not offered (the list says how to switch it on) and no panel opens.
    if std::env::var_os("TERMINAL_PANEL").is_none() {
        let off = session(&ws.root(), unreachable_model(), Features::OFF, true);
        let listed = off
            .tool_list()
            .into_iter()
            .find(|t| t.name == "TerminalCapture")
            .expect("listed");
        assert!(!listed.offered, "{listed:?}");
        assert!(
            listed
                .reason
                .as_deref()
                .is_some_and(|r| r.contains("TERMINAL_PANEL=1")),
            "{listed:?}"
        );
        let err = off
            .terminal_panel()
            .open(24, 80, Box::new(|_| {}))
            .expect_err("switched off");
        assert!(err.to_string().contains("switched off"), "{err}");
        assert!(!off.info().terminal_panel);

        // The switch under `env` in a settings file.
        let ws = Workspace::new(&[(
            ".claude/settings.json",
            r#"{"env": {"TERMINAL_PANEL": "1"}}"#,
        )])
        .expect("workspace");
        let from_file = session(&ws.root(), unreachable_model(), Features::OFF, true);
        assert!(from_file.info().terminal_panel);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_model_reads_the_panel_in_a_turn() {
    let ws = Workspace::new(&[]).expect("workspace");
    let fake = server(Script::turns([
        ScriptedTurn::tool_use("t1", "TerminalCapture", json!({})),
        ScriptedTurn::text("I see it"),
    ]))
    .await;
    let s = session(&ws.root(), fake_model(&fake), ON, true);
    let heard = Played::default();
    let panel = open(&s, &heard).await;
    s.terminal_panel()
        .type_bytes(b"echo hello-from-the-panel\n")
        .expect("typed");
    heard
        .until(&panel, "the echo", |p| {
            p.snapshot()
                .rows
                .iter()
                .any(|r| r == "hello-from-the-panel")
        })
        .await;
    let outcome = s.send("what does my terminal say?").await.expect("turn");
    assert_eq!(outcome.final_text, "I see it");
    let requests = fake.requests();
    assert!(super::common::offered(&requests[0].body).contains(&"TerminalCapture".to_string()));
    let result = requests[1].body["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .flat_map(|m| m["content"].as_array().cloned().unwrap_or_default())
        .find(|b| b["type"] == "tool_result" && b["tool_use_id"] == "t1")
        .expect("the call's result");
    assert_ne!(result["is_error"], true, "{result}");
    let text = result["content"].to_string();
    assert!(text.contains("hello-from-the-panel"), "{text}");
    drop(panel);
    s.end(tandem_engine::session::EndReason::Other).await;
    assert!(
        s.terminal_panel().current().is_err(),
        "the panel closes with the session"
    );
}

#[test]
fn capture_asks_unless_a_rule_allows_it() {
    let project = Project::new().expect("project");
    let tools = vec![erase(TerminalCaptureTool::new(Arc::new(PanelSlot::new(
        PanelHost::CommandLine,
        &project.root,
    ))))];
    use DecisionBehavior::*;
    use PermissionMode::*;
    type Case<'a> = (&'a [(&'a str, &'a str)], PermissionMode, DecisionBehavior);
    let cases: &[Case<'_>] = &[
        (&[], Default, Ask),
        (&[], AcceptEdits, Ask),
        (&[], Plan, Ask),
        (&[], DontAsk, Deny),
        (&[], BypassPermissions, Allow),
        (&[("allow", "TerminalCapture")], Default, Allow),
        (&[("allow", "TerminalCapture")], Plan, Allow),
        (&[("allow", "TerminalCapture")], DontAsk, Allow),
        (&[("deny", "TerminalCapture")], BypassPermissions, Deny),
        (&[("ask", "TerminalCapture")], BypassPermissions, Ask),
    ];
    for (rules, mode, want) in cases {
        let answer = check_call(
            &project.ctx(rules, *mode),
            &tools,
            "TerminalCapture",
            &json!({"lines": 10}),
        );
        assert_eq!(answer.decision, *want, "{rules:?} {mode:?}: {answer:?}");
        // Without the tool in the list (the command line's check of a tool it does not run) it is judged the same.
        let bare = check_call(
            &project.ctx(rules, *mode),
            &[],
            "TerminalCapture",
            &json!({}),
        );
        assert_eq!(bare.decision, *want, "bare {rules:?} {mode:?}: {bare:?}");
    }
    // A rule naming it is a rule on a known tool.
    let rule = parse_rule("TerminalCapture", RuleBehavior::Allow).expect("parses");
    assert_eq!(rule.warning, None);
}

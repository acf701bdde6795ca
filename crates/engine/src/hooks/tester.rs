//! The hooks panel: every configured hook by event with its source and matcher and a sample of its stdin, and
//! running one hook for real (with its timeout) on an input the person edited, to show what it would decide.

use std::path::Path;

use serde_json::{Map, Value, json};
use tandem_protocol::{HookListing, HookTestResult};

use super::combine::{HookDecision, combine};
use super::run::{HookInput, run_hooks};
use crate::settings::{HookCommand, HookEvent, HookSet};

/// Every hook of `all` by event (in configuration order); `active` is the set in force now.
pub fn hook_listing(all: &HookSet, active: &HookSet, input: &HookInput) -> Vec<HookListing> {
    let mut out = Vec::new();
    for (event, matchers) in &all.events {
        for m in matchers {
            for h in &m.hooks {
                let in_force = active.events.get(event).is_some_and(|ms| {
                    ms.iter().any(|am| {
                        am.pattern == m.pattern
                            && am
                                .hooks
                                .iter()
                                .any(|ah| ah.command == h.command && ah.source == h.source)
                    })
                });
                out.push(HookListing {
                    event: event.as_str().to_string(),
                    matcher: m.pattern.clone(),
                    command: h.command.clone(),
                    timeout_secs: h.timeout_secs,
                    source: h.source.label(),
                    active: in_force,
                    sample_input: sample_input(*event, m.pattern.as_deref(), input),
                });
            }
        }
    }
    out
}

/// A tool the matcher names (its first alternative when that is a plain name), else `Bash`.
fn sample_tool(matcher: Option<&str>) -> String {
    matcher
        .and_then(|m| m.split('|').next())
        .map(str::trim)
        .filter(|t| !t.is_empty() && t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or("Bash")
        .to_string()
}

/// The value a matcher names when it is one plain word (`startup`, `idle_prompt`), else `default`.
fn matcher_or<'a>(matcher: Option<&'a str>, default: &'a str) -> &'a str {
    matcher
        .map(str::trim)
        .filter(|m| !m.is_empty() && m.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(default)
}

/// A sample of the stdin of `event` (for a tool event, a call of the tool the matcher names).
pub fn sample_input(event: HookEvent, matcher: Option<&str>, input: &HookInput) -> Value {
    let mut extra = Map::new();
    let tool = sample_tool(matcher);
    let file = input.cwd.join("src/main.rs").display().to_string();
    let tool_input = match tool.as_str() {
        "Bash" => json!({"command": "npm test", "description": "Run the tests"}),
        "Edit" | "MultiEdit" => {
            json!({"file_path": file, "old_string": "old", "new_string": "new"})
        }
        "Write" => json!({"file_path": file, "content": "fn main() {}\n"}),
        "Read" => json!({"file_path": file}),
        "WebFetch" => json!({"url": "https://example.com", "prompt": "Summarise"}),
        _ => json!({}),
    };
    if event.has_tool() {
        extra.insert("tool_name".into(), Value::String(tool));
        extra.insert("tool_input".into(), tool_input);
        extra.insert("tool_use_id".into(), json!("toolu_sample"));
    }
    match event {
        HookEvent::PostToolUse => {
            extra.insert("tool_response".into(), json!("ok"));
        }
        HookEvent::PostToolUseFailure => {
            extra.insert("error".into(), json!("the command failed"));
        }
        HookEvent::UserPromptSubmit => {
            extra.insert("prompt".into(), json!("Fix the failing test"));
        }
        HookEvent::Stop | HookEvent::SubagentStop => {
            extra.insert("stop_hook_active".into(), json!(false));
        }
        HookEvent::SessionStart => {
            extra.insert("source".into(), json!(matcher_or(matcher, "startup")));
        }
        HookEvent::SessionEnd => {
            extra.insert("reason".into(), json!(matcher_or(matcher, "other")));
        }
        HookEvent::Notification => {
            let kind = matcher_or(matcher, "permission_prompt");
            let message = if kind == "idle_prompt" {
                "Tandem is waiting for your input"
            } else {
                "Tandem needs your permission to use Bash"
            };
            extra.insert("message".into(), json!(message));
            extra.insert("title".into(), json!("Tandem"));
            extra.insert("notification_type".into(), json!(kind));
        }
        HookEvent::PreCompact => {
            extra.insert("trigger".into(), json!("manual"));
        }
        _ => {}
    }
    input.json(event, extra)
}

/// Runs `hook` of `event` once, for real, with `stdin` as its input (in `cwd`, with its timeout), and says what it
/// did and what it would decide.
pub async fn test_hook(
    hook: &HookCommand,
    event: HookEvent,
    stdin: &Value,
    cwd: &Path,
    project_dir: &Path,
) -> HookTestResult {
    let runs = run_hooks(std::slice::from_ref(hook), stdin, cwd, project_dir).await;
    let verdict = combine(event, &runs);
    let Some(run) = runs.into_iter().next() else {
        return HookTestResult {
            exit_code: None,
            stdout: String::new(),
            stderr: String::new(),
            timed_out: false,
            outcome: "did not run".into(),
            decision: None,
            reason: None,
            block: None,
            errors: verdict.errors,
        };
    };
    HookTestResult {
        outcome: run.outcome(),
        exit_code: run.exit_code,
        stdout: run.stdout,
        stderr: run.stderr,
        timed_out: run.timed_out,
        decision: verdict.decision.map(HookDecision::behavior),
        reason: verdict.reason,
        block: verdict.block,
        errors: verdict.errors,
    }
}

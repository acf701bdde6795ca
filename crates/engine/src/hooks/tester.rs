//! The hooks panel: every configured hook by event with its source and matcher and a sample of its stdin, and
//! running one hook for real (with its timeout) on an input the person edited, to show what it would decide.

use std::path::Path;

use serde_json::{Value, json};
use tandem_protocol::{HookListing, HookTestResult};

use super::combine::{HookDecision, combine};
use super::payload::{
    EventInput, Notification, PreCompact, PromptSubmit, SessionEnd, SessionStart, StopInput,
    SubagentStart, SubagentStop, ToolCall, ToolFailure, ToolSuccess,
};
use super::run::{HookInput, run_hooks};
use crate::model::ModelConfig;
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

/// A sample of the stdin of `event` (for a tool event, a call of the tool the matcher names), built from the same
/// types as the real input, so that it has the same fields.
pub fn sample_input(event: HookEvent, matcher: Option<&str>, input: &HookInput) -> Value {
    let payload = input.payload(sample_event(event, matcher, &input.cwd));
    // A payload always serialises: every map key is a string.
    serde_json::to_value(payload).unwrap_or_default()
}

/// The sample call of tool `tool` (its input) in `cwd`.
fn sample_call(tool: String, cwd: &Path) -> ToolCall {
    let file = cwd.join("src/main.rs").display().to_string();
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
    ToolCall {
        tool_name: tool,
        tool_input,
        tool_use_id: "toolu_sample".into(),
    }
}

/// The event's own fields in a sample (a sub-agent of the type the matcher names, a session started for the reason
/// it names, …).
fn sample_event(event: HookEvent, matcher: Option<&str>, cwd: &Path) -> EventInput {
    let call = || sample_call(sample_tool(matcher), cwd);
    let agent = || SubagentStart {
        agent_id: "agent_sample".into(),
        agent_type: matcher_or(matcher, "general-purpose").into(),
    };
    match event {
        HookEvent::PreToolUse => EventInput::PreToolUse(call()),
        HookEvent::PermissionRequest => EventInput::PermissionRequest(call()),
        HookEvent::PostToolUse => EventInput::PostToolUse(ToolSuccess {
            call: call(),
            tool_response: serde_json::Value::String("ok".into()),
        }),
        HookEvent::PostToolUseFailure => EventInput::PostToolUseFailure(ToolFailure {
            call: call(),
            error: "the command failed".into(),
        }),
        HookEvent::UserPromptSubmit => EventInput::UserPromptSubmit(PromptSubmit {
            prompt: "Fix the failing test".into(),
        }),
        HookEvent::Stop => EventInput::Stop(StopInput {
            stop_hook_active: false,
        }),
        HookEvent::SubagentStart => EventInput::SubagentStart(agent()),
        HookEvent::SubagentStop => EventInput::SubagentStop(SubagentStop {
            agent: agent(),
            stop_hook_active: false,
            agent_transcript_path: String::new(),
        }),
        HookEvent::SessionStart => {
            let source = matcher_or(matcher, "startup");
            EventInput::SessionStart(SessionStart {
                source: source.into(),
                // Only the start after a compaction has no model.
                model: (source != "compact").then(|| ModelConfig::default().model),
            })
        }
        HookEvent::SessionEnd => EventInput::SessionEnd(SessionEnd {
            reason: matcher_or(matcher, "other").into(),
        }),
        HookEvent::Notification => {
            let kind = matcher_or(matcher, "permission_prompt");
            let message = if kind == "idle_prompt" {
                "Tandem is waiting for your input"
            } else {
                "Tandem needs your permission to use Bash"
            };
            EventInput::Notification(Notification {
                message: message.into(),
                title: "Tandem".into(),
                notification_type: kind.into(),
            })
        }
        HookEvent::PreCompact => EventInput::PreCompact(PreCompact {
            trigger: "manual".into(),
            custom_instructions: String::new(),
        }),
    }
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

//! Combining the answers of the hooks of one event: exit codes, JSON output, deny > ask > allow, every
//! `additionalContext` kept in a stable order, `continue: false` winning over any decision.

use serde_json::Value;

use super::run::HookRun;
use crate::settings::HookEvent;

/// A hook's permission answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum HookDecision {
    Allow,
    Ask,
    Deny,
}

/// The combined answer of all hooks of one event.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HookVerdict {
    /// PreToolUse: allow / ask / deny (exit code 2 is deny); PermissionRequest: allow / deny.
    pub decision: Option<HookDecision>,
    /// The reason given with the winning decision (deny reasons go to the model).
    pub reason: Option<String>,
    /// The hook command whose decision won.
    pub decided_by: Option<String>,
    /// A rewritten tool input.
    pub updated_input: Option<Value>,
    pub additional_context: Vec<String>,
    /// `continue: false`: the turn stops, with this reason for the user.
    pub stop: Option<String>,
    pub system_messages: Vec<String>,
    /// PostToolUse / Stop / UserPromptSubmit `decision: "block"` (or exit code 2), with the reason.
    pub block: Option<String>,
    /// MCP tools only: a replacement tool output.
    pub updated_mcp_output: Option<Value>,
    pub suppress_output: bool,
    /// Non-blocking errors (other exit codes, timeouts, failures to start), shown to the user.
    pub errors: Vec<String>,
}

impl HookVerdict {
    fn decide(&mut self, d: HookDecision, reason: Option<String>, command: &str) {
        if self.decision.is_none_or(|cur| d > cur) {
            self.decision = Some(d);
            self.reason = reason;
            self.decided_by = Some(command.to_string());
        }
    }
}

fn text(v: Option<&Value>) -> Option<String> {
    v.and_then(Value::as_str).map(str::to_string)
}

/// Combines the runs of one event's hooks.
pub fn combine(event: HookEvent, runs: &[HookRun]) -> HookVerdict {
    let mut out = HookVerdict::default();
    let mut updated: Vec<(Option<HookDecision>, Value)> = Vec::new();
    for run in runs {
        if run.timed_out {
            out.errors.push(format!(
                "hook `{}` timed out after {} s",
                run.command, run.timeout_secs
            ));
            continue;
        }
        if let Some(e) = &run.spawn_error {
            out.errors
                .push(format!("hook `{}` could not run: {e}", run.command));
            continue;
        }
        match run.exit_code {
            Some(0) => {}
            Some(2) => {
                let message = run.stderr.trim().to_string();
                let message = if message.is_empty() {
                    format!("blocked by hook `{}`", run.command)
                } else {
                    message
                };
                match event {
                    HookEvent::PreToolUse | HookEvent::PermissionRequest => {
                        out.decide(HookDecision::Deny, Some(message), &run.command)
                    }
                    _ => {
                        if out.block.is_none() {
                            out.block = Some(message);
                        }
                    }
                }
                continue;
            }
            code => {
                let code = code.map_or("a signal".to_string(), |c| format!("exit code {c}"));
                out.errors.push(format!(
                    "hook `{}` failed with {code}: {}",
                    run.command,
                    run.stderr.trim()
                ));
                continue;
            }
        }
        let stdout = run.stdout.trim();
        let Ok(json) = serde_json::from_str::<Value>(stdout) else {
            if !stdout.is_empty()
                && matches!(event, HookEvent::UserPromptSubmit | HookEvent::SessionStart)
            {
                out.additional_context.push(stdout.to_string());
            }
            continue;
        };
        if !json.is_object() {
            continue;
        }
        if json.get("continue").and_then(Value::as_bool) == Some(false) && out.stop.is_none() {
            out.stop = Some(
                text(json.get("stopReason"))
                    .unwrap_or_else(|| format!("hook `{}` stopped the turn", run.command)),
            );
        }
        if let Some(m) = text(json.get("systemMessage")) {
            out.system_messages.push(m);
        }
        if json.get("suppressOutput").and_then(Value::as_bool) == Some(true) {
            out.suppress_output = true;
        }
        let specific = json.get("hookSpecificOutput");
        let mut decision = None;
        if let Some(s) = specific {
            if let Some(d) = s.get("permissionDecision").and_then(Value::as_str) {
                decision = match d {
                    "allow" => Some(HookDecision::Allow),
                    "ask" => Some(HookDecision::Ask),
                    "deny" => Some(HookDecision::Deny),
                    _ => None,
                };
                if let Some(d) = decision {
                    out.decide(d, text(s.get("permissionDecisionReason")), &run.command);
                }
            }
            if let Some(d) = s.get("decision").filter(|d| d.is_object()) {
                decision = match d.get("behavior").and_then(Value::as_str) {
                    Some("allow") => Some(HookDecision::Allow),
                    Some("deny") => Some(HookDecision::Deny),
                    _ => None,
                };
                if let Some(dec) = decision {
                    out.decide(dec, text(d.get("message")), &run.command);
                }
                if let Some(u) = d.get("updatedInput").filter(|u| u.is_object()) {
                    updated.push((decision, u.clone()));
                }
            }
            if let Some(u) = s.get("updatedInput").filter(|u| u.is_object()) {
                updated.push((decision, u.clone()));
            }
            if let Some(c) = text(s.get("additionalContext")) {
                out.additional_context.push(c);
            }
            if event == HookEvent::PostToolUse
                && let Some(o) = s.get("updatedMCPToolOutput")
            {
                out.updated_mcp_output = Some(o.clone());
            }
        }
        if let Some(d) = json.get("decision").and_then(Value::as_str) {
            let reason = text(json.get("reason"));
            match (event, d) {
                (HookEvent::PreToolUse, "approve") if decision.is_none() => {
                    out.decide(HookDecision::Allow, reason, &run.command)
                }
                (HookEvent::PreToolUse, "block") if decision.is_none() => {
                    out.decide(HookDecision::Deny, reason, &run.command)
                }
                (_, "block") if event != HookEvent::PreToolUse && out.block.is_none() => {
                    out.block = Some(
                        reason.unwrap_or_else(|| format!("blocked by hook `{}`", run.command)),
                    );
                }
                _ => {}
            }
        }
    }
    // The rewritten input of the winning decision, else the first one given.
    out.updated_input = updated
        .iter()
        .find(|(d, _)| d.is_some() && *d == out.decision)
        .or_else(|| updated.first())
        .map(|(_, v)| v.clone());
    if out.decision == Some(HookDecision::Deny) {
        out.updated_input = None;
    }
    out
}

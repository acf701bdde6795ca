//! Combining the answers of the hooks of one event: exit codes, JSON output, deny > ask > allow, every
//! `additionalContext` kept in a stable order, `continue: false` winning over any decision. Every text a hook gives
//! (a reason, context, its stderr) is cut to [`MAX_HOOK_TEXT`] characters with a marker, so that a runaway hook
//! cannot fill a message or a request.

use serde_json::Value;

use super::output::{
    Behavior, Given, HookOutput, LegacyDecision, PermissionAnswer, SpecificOutput,
};
use super::run::HookRun;
use crate::settings::HookEvent;

/// The most characters of one text a hook gives (a reason, a context, its stderr) that are passed on.
pub const MAX_HOOK_TEXT: usize = 10_000;

/// `text` cut to [`MAX_HOOK_TEXT`] characters.
fn capped(text: &str) -> String {
    crate::text::cut_middle(text, MAX_HOOK_TEXT, "the hook's text")
}

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
    /// One decision-trace step per hook that ran (filled in by whoever knows where each hook is configured).
    pub steps: Vec<tandem_protocol::TraceStep>,
}

impl HookVerdict {
    fn decide(&mut self, d: HookDecision, reason: Option<String>, command: &str) {
        if self.decision.is_none_or(|cur| d > cur) {
            self.decision = Some(d);
            self.reason = reason;
            self.decided_by = Some(command.to_string());
        }
    }
    /// Takes what a run's exit says (a timeout, a failure to start, exit code 2, another failing code) and returns
    /// its stdout as a JSON object when the run succeeded and printed one. Plain text output of prompt and
    /// session-start hooks is context for the model.
    fn exit_status(&mut self, event: HookEvent, run: &HookRun) -> Option<Value> {
        if run.timed_out {
            self.errors.push(format!(
                "hook `{}` timed out after {} s",
                run.command, run.timeout_secs
            ));
            return None;
        }
        if let Some(e) = &run.spawn_error {
            self.errors
                .push(format!("hook `{}` could not run: {e}", run.command));
            return None;
        }
        match run.exit_code {
            Some(0) => {}
            Some(2) => {
                self.blocking_exit(event, run);
                return None;
            }
            code => {
                let code = code.map_or("a signal".to_string(), |c| format!("exit code {c}"));
                self.errors.push(format!(
                    "hook `{}` failed with {code}: {}",
                    run.command,
                    capped(run.stderr.trim())
                ));
                return None;
            }
        }
        let stdout = run.stdout.trim();
        match serde_json::from_str::<Value>(stdout) {
            Ok(json) if json.is_object() => Some(json),
            Ok(_) => None,
            Err(_) => {
                if !stdout.is_empty()
                    && matches!(event, HookEvent::UserPromptSubmit | HookEvent::SessionStart)
                {
                    self.additional_context.push(capped(stdout));
                }
                None
            }
        }
    }

    /// Exit code 2: a deny for permission events, a block (with stderr as the reason) for the others.
    fn blocking_exit(&mut self, event: HookEvent, run: &HookRun) {
        let message = capped(run.stderr.trim());
        let message = if message.is_empty() {
            format!("blocked by hook `{}`", run.command)
        } else {
            message
        };
        match event {
            HookEvent::PreToolUse | HookEvent::PermissionRequest => {
                self.decide(HookDecision::Deny, Some(message), &run.command)
            }
            _ => {
                if self.block.is_none() {
                    self.block = Some(message);
                }
            }
        }
    }

    /// Takes a successful run's output: the common fields, the event-specific ones, the legacy decision.
    fn take_output(
        &mut self,
        event: HookEvent,
        run: &HookRun,
        output: &HookOutput,
        updated: &mut Vec<Rewrite>,
    ) {
        self.common_fields(run, output);
        let decision = match output.hook_specific_output.fits() {
            Some(specific) => self.specific_output(event, run, specific, updated),
            None => None,
        };
        if let Some(d) = output.decision.fits() {
            self.legacy_decision(event, run, *d, text(&output.reason), decision.is_some());
        }
    }

    /// `continue`, `stopReason`, `systemMessage` and `suppressOutput`.
    fn common_fields(&mut self, run: &HookRun, output: &HookOutput) {
        if output.continue_.fits() == Some(&false) && self.stop.is_none() {
            self.stop = Some(
                text(&output.stop_reason)
                    .unwrap_or_else(|| format!("hook `{}` stopped the turn", run.command)),
            );
        }
        if let Some(m) = text(&output.system_message) {
            self.system_messages.push(m);
        }
        if output.suppress_output.fits() == Some(&true) {
            self.suppress_output = true;
        }
    }

    /// `hookSpecificOutput`: a permission decision (PreToolUse's `permissionDecision` or PermissionRequest's
    /// `decision.behavior`), a rewritten input, context, and a replacement MCP output. Returns the decision given.
    fn specific_output(
        &mut self,
        event: HookEvent,
        run: &HookRun,
        s: &SpecificOutput,
        updated: &mut Vec<Rewrite>,
    ) -> Option<HookDecision> {
        let mut decision = None;
        if let Some(d) = s.permission_decision.fits() {
            let d = match d {
                PermissionAnswer::Allow => HookDecision::Allow,
                PermissionAnswer::Ask => HookDecision::Ask,
                PermissionAnswer::Deny => HookDecision::Deny,
            };
            decision = Some(d);
            self.decide(d, text(&s.permission_decision_reason), &run.command);
        }
        if let Some(d) = s.decision.fits() {
            decision = d.behavior.fits().map(|b| match b {
                Behavior::Allow => HookDecision::Allow,
                Behavior::Deny => HookDecision::Deny,
            });
            if let Some(dec) = decision {
                self.decide(dec, text(&d.message), &run.command);
            }
            if let Some(u) = d.updated_input.fits() {
                updated.push((decision, Value::Object(u.clone())));
            }
        }
        if let Some(u) = s.updated_input.fits() {
            updated.push((decision, Value::Object(u.clone())));
        }
        if let Some(c) = text(&s.additional_context) {
            self.additional_context.push(c);
        }
        if event == HookEvent::PostToolUse
            && let Some(o) = s.updated_mcp_tool_output.fits()
        {
            self.updated_mcp_output = Some(o.clone());
        }
        decision
    }

    /// The older top-level `decision`: PreToolUse's `approve` / `block` (when no specific decision was given),
    /// other events' `block`.
    fn legacy_decision(
        &mut self,
        event: HookEvent,
        run: &HookRun,
        d: LegacyDecision,
        reason: Option<String>,
        specific_given: bool,
    ) {
        match (event, d) {
            (HookEvent::PreToolUse, LegacyDecision::Approve) if !specific_given => {
                self.decide(HookDecision::Allow, reason, &run.command)
            }
            (HookEvent::PreToolUse, LegacyDecision::Block) if !specific_given => {
                self.decide(HookDecision::Deny, reason, &run.command)
            }
            (_, LegacyDecision::Block)
                if event != HookEvent::PreToolUse && self.block.is_none() =>
            {
                self.block =
                    Some(reason.unwrap_or_else(|| format!("blocked by hook `{}`", run.command)));
            }
            _ => {}
        }
    }
}

/// A text field of the output, cut to [`MAX_HOOK_TEXT`].
fn text(field: &Given<String>) -> Option<String> {
    field.fits().map(|t| capped(t))
}

/// A rewritten input a hook gave, with the decision it came with.
type Rewrite = (Option<HookDecision>, Value);

/// Combines the runs of one event's hooks.
pub fn combine(event: HookEvent, runs: &[HookRun]) -> HookVerdict {
    let mut out = HookVerdict::default();
    let mut updated: Vec<Rewrite> = Vec::new();
    for run in runs {
        let Some(json) = out.exit_status(event, run) else {
            continue;
        };
        match HookOutput::read(event, json) {
            Ok(output) => out.take_output(event, run, &output, &mut updated),
            // Output that does not say what it means is a failed hook: shown to the person, and the call goes on
            // as if the hook had not answered.
            Err(problems) => out.errors.push(format!(
                "hook `{}` printed JSON that does not fit the hook output format, so it was ignored: {}",
                run.command,
                problems.join("; ")
            )),
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

impl HookDecision {
    /// The permission answer this is.
    pub fn behavior(self) -> tandem_protocol::DecisionBehavior {
        match self {
            Self::Allow => tandem_protocol::DecisionBehavior::Allow,
            Self::Ask => tandem_protocol::DecisionBehavior::Ask,
            Self::Deny => tandem_protocol::DecisionBehavior::Deny,
        }
    }
}

/// The decision-trace step of one hook run of `event`, configured in `source`: what the process did and the answer
/// it gave on its own.
pub fn trace_step(event: HookEvent, run: &HookRun, source: String) -> tandem_protocol::TraceStep {
    let alone = combine(event, std::slice::from_ref(run));
    tandem_protocol::TraceStep::Hook {
        event: event.as_str().to_string(),
        command: run.command.clone(),
        source,
        outcome: run.outcome(),
        decision: alone.decision.map(HookDecision::behavior),
        reason: alone.reason.or(alone.block),
    }
}

//! Answering one tool call against a permission context without running it: the call's subject comes from the tool
//! itself when it is among the given tools, or from its usual input fields otherwise. `tandem permissions check`
//! and the decision tables use it; the caller supplies the tools (this layer does not build a tool pool).

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tandem_protocol::DecisionBehavior;

use super::context::PermissionContext;
use super::decide::{CallView, evaluate};
use super::rule::{canonical_tool_name, is_known_tool};
use super::trace::explain;
use crate::tool::PermissionSubject;
use crate::tool::names;
use crate::tool::{DynTool, ToolContext};

/// One answer: `{"decision", "reason", "rule", "source"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckAnswer {
    pub decision: DecisionBehavior,
    pub reason: String,
    pub rule: Option<String>,
    pub source: Option<String>,
    /// What decided, typed (`null` when the check could not be made).
    #[serde(default)]
    pub decided_by: Option<tandem_protocol::DecisionSource>,
    /// The rules "Yes, and don't ask again" would save for an ask (what the approval dialog offers).
    #[serde(default)]
    pub suggestions: Vec<String>,
    /// The steps of the decision: the mode, the rules that matched (and those they shadowed), the checks that
    /// fired (`null` when the check could not be made).
    #[serde(default)]
    pub trace: Option<tandem_protocol::DecisionTrace>,
    /// What the call would destroy (the approval dialog's warnings), e.g. for `rm -rf build`.
    #[serde(default)]
    pub warnings: Vec<String>,
}

impl CheckAnswer {
    /// A refusal that explains what was wrong with the question (bad input, unknown tool, missing folder).
    pub fn error(reason: String) -> Self {
        Self {
            decision: DecisionBehavior::Deny,
            reason,
            rule: None,
            source: None,
            decided_by: None,
            suggestions: Vec::new(),
            trace: None,
            warnings: Vec::new(),
        }
    }
}

fn str_field<'a>(input: &'a Value, field: &str) -> Option<&'a str> {
    input.get(field).and_then(Value::as_str)
}

/// The subject and read-only flag of a call to a tool not among the given tools, from its usual input fields.
fn fallback_subject(
    tool: &str,
    input: &Value,
    ctx: &ToolContext,
) -> Result<(PermissionSubject, bool), String> {
    let need = |field: &str| {
        str_field(input, field)
            .ok_or_else(|| format!("invalid input for {tool}: `{field}` (a string) is required"))
    };
    if !input.is_object() {
        return Err(format!(
            "invalid input for {tool}: the input must be a JSON object"
        ));
    }
    Ok(match tool {
        names::BASH => (
            PermissionSubject::Shell {
                command: need("command")?.to_string(),
            },
            false,
        ),
        names::READ => (
            PermissionSubject::ReadPath(ctx.resolve(need("file_path")?)),
            true,
        ),
        names::LSP => (
            PermissionSubject::ReadPath(ctx.resolve(need("filePath")?)),
            true,
        ),
        names::NOTEBOOK_READ => (
            PermissionSubject::ReadPath(ctx.resolve(need("notebook_path")?)),
            true,
        ),
        names::GLOB | names::GREP | names::LS => {
            if tool != names::LS {
                need("pattern")?;
            }
            let path = str_field(input, "path").unwrap_or(".");
            (PermissionSubject::ReadPath(ctx.resolve(path)), true)
        }
        names::EDIT | names::WRITE | names::MULTI_EDIT => (
            PermissionSubject::WritePath(ctx.resolve(need("file_path")?)),
            false,
        ),
        names::NOTEBOOK_EDIT => (
            PermissionSubject::WritePath(ctx.resolve(need("notebook_path")?)),
            false,
        ),
        names::WEB_FETCH => (
            PermissionSubject::Fetch {
                url: need("url")?.to_string(),
                private_address: None,
            },
            false,
        ),
        names::SKILL => (
            PermissionSubject::Skill {
                name: need("skill")?.trim_start_matches('/').to_string(),
                grants: Vec::new(),
            },
            false,
        ),
        names::AGENT => (
            PermissionSubject::Agent {
                subagent_type: str_field(input, "subagent_type").map(str::to_string),
            },
            false,
        ),
        // Tools that only read need no permission in most modes.
        names::TOOL_SEARCH
        | names::TASK_GET
        | names::TASK_LIST
        | names::TASK_OUTPUT
        | names::BASH_OUTPUT
        | names::LIST_MCP_RESOURCES
        | names::LIST_PEERS => (PermissionSubject::Tool, true),
        // Reading the person's terminal panel may show secrets: it asks unless a rule allows it.
        names::TERMINAL_CAPTURE => (
            PermissionSubject::PersonalRead {
                what: "the person's terminal panel, which may show secrets".to_string(),
            },
            true,
        ),
        // Tools that only change the session's own state need none at all (deny rules still apply).
        names::TODO_WRITE
        | names::TASK_CREATE
        | names::TASK_UPDATE
        | names::TASK_STOP
        | names::KILL_SHELL
        | names::KILL_BASH
        | names::TEAM_CREATE
        | names::TEAM_DELETE
        | names::SEND_MESSAGE
        | names::BRIEF
        | names::STRUCTURED_OUTPUT
        | names::SLEEP => (PermissionSubject::SessionOwned, false),
        _ => (PermissionSubject::Tool, false),
    })
}

/// Answers a call to `tool` (a name or alias) with `input` against `ctx`, looking the tool up in `tools`. Invalid
/// input and unknown tools are answered deny with the reason.
pub fn check_call(
    ctx: &PermissionContext,
    tools: &[Arc<dyn DynTool>],
    tool: &str,
    input: &Value,
) -> CheckAnswer {
    let name = canonical_tool_name(tool);
    let tool_ctx = ToolContext {
        working_dirs: ctx.working_dirs.clone(),
        sandbox: ctx.sandbox.clone(),
        ..ToolContext::new(ctx.cwd.clone())
    };
    let registered = tools
        .iter()
        .find(|t| t.name() == name || t.aliases().contains(&tool));
    let mut warnings = Vec::new();
    let (subject, read_only, name) = match registered {
        Some(t) => {
            let prepared = match t.prepare(input) {
                Ok(p) => p,
                Err(message) => {
                    return CheckAnswer::error(format!(
                        "invalid input for {}: {message}",
                        t.name()
                    ));
                }
            };
            warnings = prepared.approval_warnings(&tool_ctx);
            (
                prepared.permission_subject(&tool_ctx),
                prepared.is_read_only(),
                t.name().to_string(),
            )
        }
        None if name.starts_with("mcp__") => (PermissionSubject::Tool, false, name.to_string()),
        None if is_known_tool(name) => match fallback_subject(name, input, &tool_ctx) {
            Ok((s, r)) => (s, r, name.to_string()),
            Err(message) => return CheckAnswer::error(message),
        },
        None => {
            return CheckAnswer::error(format!(
                "unknown tool `{tool}`: no built-in tool has that name (MCP tools are named mcp__<server>__<tool>)"
            ));
        }
    };
    let view = CallView {
        tool_name: &name,
        input,
        subject: &subject,
        read_only,
    };
    let evaluation = evaluate(ctx, &view);
    let trace = explain(ctx, &view, &evaluation.decision);
    let decision = evaluation.decision;
    CheckAnswer {
        decision: decision.decision,
        reason: decision.reason,
        rule: decision.rule,
        source: decision.source,
        decided_by: decision.decided_by,
        suggestions: evaluation.suggestions,
        trace: Some(trace),
        warnings,
    }
}

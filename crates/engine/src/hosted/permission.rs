//! The hosted agent's permission requests, answered by Tandem's permission engine first: a call of kind `execute`
//! with a command is checked as a Bash call, `read` and `edit` (also `delete`, `move`) with a file as Read and Edit
//! calls on it, `fetch` with a URL as WebFetch; PreToolUse hooks run on it first ([`super::hooks`]). An allow or deny
//! rule (or the mode, or a hook) answers without asking; what they leave open, and every other call, goes to the
//! run's approver (as Tandem's own calls do). A call
//! allowed this way is remembered, so that the write or the command the agent then asks Tandem to carry out
//! (`fs/write_text_file`, `terminal/create`) is not asked about a second time ([`HostedApprover`]).

use std::collections::HashSet;
use std::path::Path;
use std::sync::{Arc, Mutex};

use crate::approver::{Approver, NoAnswer};
use crate::exec::ToolRuntime;
use crate::permission::{CheckAnswer, check_call};
use futures::future::BoxFuture;
use serde_json::{Value, json};
use tandem_protocol::{
    ApprovalAnswer, ApprovalChoice, ApprovalRequest, DecisionBehavior, DecisionSource,
    PermissionDecision, PlanAnswer, PlanRequest, QuestionAnswer, QuestionRequest, SessionEvent,
    ToolCallStatus,
};

use tokio_util::sync::CancellationToken;

use super::updates::{call_of, tool_kind};

/// The Tandem call an agent's call is checked as: the tool's name and its input.
pub fn tandem_call(
    kind: &str,
    input: &Value,
    locations: &[String],
) -> Option<(&'static str, Value)> {
    let text = |key: &str| input.get(key).and_then(Value::as_str).map(str::to_string);
    let path = || {
        locations
            .first()
            .cloned()
            .or_else(|| text("file_path"))
            .or_else(|| text("path"))
            .or_else(|| text("abs_path"))
    };
    match kind {
        "execute" => {
            let command = match input.get("command") {
                Some(Value::String(command)) => Some(command.clone()),
                Some(Value::Array(words)) => Some(
                    words
                        .iter()
                        .filter_map(Value::as_str)
                        .collect::<Vec<_>>()
                        .join(" "),
                ),
                _ => text("cmd"),
            }?;
            Some(("Bash", json!({ "command": command })))
        }
        "read" => Some(("Read", json!({ "file_path": path()? }))),
        "edit" | "delete" | "move" => Some(("Edit", json!({ "file_path": path()? }))),
        "fetch" => Some(("WebFetch", json!({ "url": text("url")?, "prompt": "" }))),
        _ => None,
    }
}

/// The engine's answer for a Tandem call, with the tools of the runtime `rt` (the session's, or a sub-agent's; an
/// edit is checked by its path alone).
pub fn check(rt: &ToolRuntime, tool: &str, input: &Value) -> CheckAnswer {
    let ctx = rt.permission_context();
    let tools = match tool {
        "Bash" | "Read" => rt.pool.all(),
        _ => Vec::new(),
    };
    check_call(&ctx, &tools, tool, input)
}

/// What Tandem answers the agent: allowed or not, and what decided.
#[derive(Debug, Clone)]
pub struct Verdict {
    pub allowed: bool,
    /// The person (or `--yes`, or the prompt tool) chose "always".
    pub always: bool,
    /// The turn was cancelled before the person answered (the agent is told `cancelled`).
    pub cancelled: bool,
    pub decision: PermissionDecision,
}

/// Answers one permission request (its `toolCall` as JSON): the rules first, then the approver; `cancel` (the turn's)
/// withdraws a question still open.
pub async fn answer(
    rt: &ToolRuntime,
    approver: &HostedApprover,
    tool_call: &Value,
    cancel: &CancellationToken,
) -> Verdict {
    let (kind, title, input, locations) = call_of(tool_call);
    let id = tool_call["toolCallId"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let mapped = tandem_call(&kind, &input, &locations);
    let (hook_tool, hook_input) = match &mapped {
        Some((tool, input)) => (tool.to_string(), input.clone()),
        None => (title.clone(), input.clone()),
    };
    let hook = super::hooks::pre_tool_use(rt, &hook_tool, &hook_input, &id).await;
    let checked = mapped.as_ref().map(|(tool, input)| check(rt, tool, input));
    let mode = rt.permission_context().mode;
    let checked = super::hooks::with_hook(checked, hook.as_ref(), mode);
    if let Some(answer) = &checked
        && answer.decision != DecisionBehavior::Ask
    {
        let allowed = answer.decision == DecisionBehavior::Allow;
        if allowed && let Some((tool, input)) = &mapped {
            approver.grant(tool, input);
        }
        return Verdict {
            allowed,
            always: false,
            cancelled: false,
            decision: decision_of(answer),
        };
    }
    // Nobody may be asked (dontAsk, a background sub-agent): what would ask is denied, as for Tandem's own calls.
    if let Some((why, source)) = crate::permission::no_one_to_ask(&rt.permission_context()) {
        return Verdict {
            allowed: false,
            always: false,
            cancelled: false,
            decision: PermissionDecision {
                decision: DecisionBehavior::Deny,
                reason: why.to_string(),
                rule: None,
                source: None,
                decided_by: Some(source),
            },
        };
    }
    let (tool, shown) = mapped
        .clone()
        .map(|(tool, input)| (tool.to_string(), input))
        .unwrap_or_else(|| {
            (
                if title.is_empty() {
                    "Tool".into()
                } else {
                    title.clone()
                },
                input.clone(),
            )
        });
    let reason = checked
        .as_ref()
        .map(|a| a.reason.clone())
        .unwrap_or_else(|| "The hosted agent asks before this call".into());
    let request = ApprovalRequest {
        id: uuid::Uuid::new_v4().to_string(),
        session_id: rt.session_id.clone(),
        tool_use_id: id,
        tool_name: tool,
        kind: tool_kind(&kind),
        input: shown,
        title: if title.is_empty() {
            kind.clone()
        } else {
            title
        },
        reason: reason.clone(),
        decided_by: checked.as_ref().and_then(|a| a.decided_by.clone()),
        trace: checked.as_ref().and_then(|a| a.trace.clone()).map(Box::new),
        suggestion: None,
        diff: None,
        sub_agent: None,
        warnings: checked.map(|a| a.warnings).unwrap_or_default(),
        previews: Vec::new(),
    };
    rt.events.emit(SessionEvent::ToolCallStatusChanged {
        tool_use_id: request.tool_use_id.clone(),
        status: ToolCallStatus::WaitingForApproval,
    });
    // Shown as Tandem's own questions are (the window's dialog), and withdrawn once answered.
    let request_id = request.id.clone();
    rt.events.emit(SessionEvent::ApprovalRequested {
        request: Box::new(request.clone()),
    });
    // A turn cancelled meanwhile withdraws the question: the agent is told the request was cancelled.
    let answered = tokio::select! {
        answered = approver.inner.ask(request) => Some(answered),
        _ = cancel.cancelled() => None,
    };
    rt.events
        .emit(SessionEvent::ApprovalResolved { request_id });
    let Some(answered) = answered else {
        return Verdict {
            allowed: false,
            always: false,
            cancelled: true,
            decision: PermissionDecision {
                decision: DecisionBehavior::Deny,
                reason: format!("{reason}; the turn was interrupted before an answer"),
                rule: None,
                source: None,
                decided_by: Some(DecisionSource::Tool {
                    tool: "hosted agent".into(),
                }),
            },
        };
    };
    let choice = answered.choice;
    let allowed = choice != ApprovalChoice::Deny;
    let why = answered
        .message
        .filter(|m| !m.trim().is_empty())
        .map(|m| format!(": {m}"))
        .unwrap_or_default();
    if allowed && let Some((tool, input)) = &mapped {
        approver.grant(tool, input);
    }
    Verdict {
        allowed,
        always: choice == ApprovalChoice::AllowAlways,
        cancelled: false,
        decision: PermissionDecision {
            decision: if allowed {
                DecisionBehavior::Allow
            } else {
                DecisionBehavior::Deny
            },
            reason: format!(
                "{reason}; answered {}{why}",
                if allowed { "yes" } else { "no" }
            ),
            rule: None,
            source: None,
            decided_by: Some(DecisionSource::Tool {
                tool: "hosted agent".into(),
            }),
        },
    }
}

fn decision_of(answer: &CheckAnswer) -> PermissionDecision {
    PermissionDecision {
        decision: answer.decision,
        reason: answer.reason.clone(),
        rule: answer.rule.clone(),
        source: answer.source.clone(),
        decided_by: answer.decided_by.clone(),
    }
}

/// The run's approver, wrapped: a write or a command the agent was already allowed (its permission request for the
/// same file or command was answered yes) is allowed again without asking; everything else goes to `inner`.
pub struct HostedApprover {
    pub inner: Arc<dyn Approver>,
    granted: Mutex<HashSet<(String, String)>>,
}

impl HostedApprover {
    pub fn new(inner: Arc<dyn Approver>) -> Self {
        Self {
            inner,
            granted: Mutex::new(HashSet::new()),
        }
    }

    /// Remembers an allowed call: an edit of a file (as Write and Edit), a command (as Bash), a read.
    fn grant(&self, tool: &str, input: &Value) {
        if let Some(key) = grant_key(tool, input)
            && let Ok(mut granted) = self.granted.lock()
        {
            granted.insert(key);
        }
    }

    fn granted(&self, request: &ApprovalRequest) -> bool {
        grant_key(&request.tool_name, &request.input).is_some_and(|key| {
            self.granted
                .lock()
                .map(|granted| granted.contains(&key))
                .unwrap_or(false)
        })
    }
}

/// What an allowed call grants: the family and the file or command.
fn grant_key(tool: &str, input: &Value) -> Option<(String, String)> {
    let field = |key: &str| input.get(key).and_then(Value::as_str);
    let (family, what) = match tool {
        "Edit" | "Write" => ("edit", normal(field("file_path")?)),
        "Read" => ("read", normal(field("file_path")?)),
        "Bash" => ("bash", field("command")?.trim().to_string()),
        _ => return None,
    };
    Some((family.to_string(), what))
}

/// A path with its `.` and `..` steps taken (no file system access).
fn normal(path: &str) -> String {
    let mut parts: Vec<&std::ffi::OsStr> = Vec::new();
    for part in Path::new(path).components() {
        match part {
            std::path::Component::ParentDir => {
                parts.pop();
            }
            std::path::Component::CurDir => {}
            other => parts.push(other.as_os_str()),
        }
    }
    parts
        .iter()
        .collect::<std::path::PathBuf>()
        .display()
        .to_string()
}

impl Approver for HostedApprover {
    fn ask(&self, request: ApprovalRequest) -> BoxFuture<'_, ApprovalAnswer> {
        if self.granted(&request) {
            let id = request.id.clone();
            return Box::pin(async move { ApprovalAnswer::new(id, ApprovalChoice::Allow) });
        }
        self.inner.ask(request)
    }

    fn review_plan(&self, request: PlanRequest) -> BoxFuture<'_, Result<PlanAnswer, NoAnswer>> {
        self.inner.review_plan(request)
    }

    fn ask_questions(
        &self,
        request: QuestionRequest,
    ) -> BoxFuture<'_, Result<QuestionAnswer, NoAnswer>> {
        self.inner.ask_questions(request)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn agent_calls_are_checked_as_tandem_calls() {
        type Row<'a> = (&'a str, Value, &'a [&'a str], Option<(&'a str, Value)>);
        let table: [Row<'_>; 8] = [
            (
                "execute",
                json!({"command": "npm test"}),
                &[],
                Some(("Bash", json!({"command": "npm test"}))),
            ),
            (
                "execute",
                json!({"command": ["npm", "test"]}),
                &[],
                Some(("Bash", json!({"command": "npm test"}))),
            ),
            ("execute", json!({}), &[], None),
            (
                "read",
                json!({}),
                &["/p/.env"],
                Some(("Read", json!({"file_path": "/p/.env"}))),
            ),
            (
                "read",
                json!({"path": "/p/a"}),
                &[],
                Some(("Read", json!({"file_path": "/p/a"}))),
            ),
            (
                "edit",
                json!({"abs_path": "/p/b"}),
                &[],
                Some(("Edit", json!({"file_path": "/p/b"}))),
            ),
            ("edit", json!({}), &[], None),
            ("think", json!({"command": "x"}), &["/p"], None),
        ];
        for (kind, input, locations, expected) in table {
            let locations: Vec<String> = locations.iter().map(|l| l.to_string()).collect();
            assert_eq!(
                tandem_call(kind, &input, &locations),
                expected,
                "{kind} {input}"
            );
        }
    }

    #[test]
    fn a_grant_covers_the_same_file_or_command() {
        assert_eq!(
            grant_key("Edit", &json!({"file_path": "/p/./a/../b"})),
            grant_key("Write", &json!({"file_path": "/p/b"}))
        );
        assert_eq!(
            grant_key("Bash", &json!({"command": " ls "})),
            Some(("bash".into(), "ls".into()))
        );
        assert_eq!(grant_key("Glob", &json!({})), None);
    }
}

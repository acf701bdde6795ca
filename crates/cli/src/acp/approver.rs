//! The session's questions as ACP `session/request_permission`: a permission request offers the window's choices
//! (allow once, allow and save the suggested rules, reject) with the decision trace in `_meta`; a plan review offers
//! approving it (with or without accepting edits) or planning on. A request the client does not answer, cancels
//! or fails is a refusal.

use agent_client_protocol::Client;
use agent_client_protocol::v1::ConnectionTo;
use agent_client_protocol::v1::schema::{
    self as acp, ContentBlock, Diff, PermissionOption, PermissionOptionKind,
    RequestPermissionOutcome, RequestPermissionRequest, TextContent, ToolCallContent,
    ToolCallUpdate, ToolCallUpdateFields,
};
use futures::future::BoxFuture;
use serde_json::{Map, Value, json};
use tandem_engine::approver::{Approver, NoAnswer};
use tandem_protocol::{
    ApprovalAnswer, ApprovalChoice, ApprovalRequest, PermissionMode, PlanAnswer, PlanChoice,
    PlanRequest,
};

use super::updates::{kind_of, locations};

/// Option ids of a permission request.
const ALLOW_ONCE: &str = "allow_once";
const ALLOW_ALWAYS: &str = "allow_always";
const REJECT_ONCE: &str = "reject_once";
/// Option ids of a plan review.
const PLAN_ACCEPT_EDITS: &str = "plan_accept_edits";
const PLAN_DEFAULT: &str = "plan_default";
const PLAN_KEEP: &str = "plan_keep_planning";

/// Asks the client connected to `tandem acp`.
pub struct AcpApprover {
    connection: ConnectionTo<Client>,
    session_id: String,
}

impl AcpApprover {
    pub fn new(connection: ConnectionTo<Client>, session_id: String) -> Self {
        Self {
            connection,
            session_id,
        }
    }

    /// Sends the request and returns the chosen option's id (`None`: cancelled, or no answer could come).
    async fn choose(&self, request: RequestPermissionRequest) -> Option<String> {
        let response = self
            .connection
            .send_request(request)
            .block_task()
            .await
            .ok()?;
        match response.outcome {
            RequestPermissionOutcome::Selected(selected) => Some(selected.option_id.0.to_string()),
            _ => None,
        }
    }
}

/// The choices the window's dialog offers for `request`: "don't ask again" only where there is a rule to save.
pub fn permission_options(request: &ApprovalRequest) -> Vec<PermissionOption> {
    let mut options = vec![PermissionOption::new(
        ALLOW_ONCE,
        "Yes",
        PermissionOptionKind::AllowOnce,
    )];
    if let Some(suggestion) = &request.suggestion {
        options.push(PermissionOption::new(
            ALLOW_ALWAYS,
            format!(
                "Yes, and don't ask again ({} in {})",
                suggestion.rules.join(", "),
                suggestion.destination
            ),
            PermissionOptionKind::AllowAlways,
        ));
    }
    options.push(PermissionOption::new(
        REJECT_ONCE,
        "No",
        PermissionOptionKind::RejectOnce,
    ));
    options
}

/// The answer for the option the client chose (anything else refuses).
pub fn answer_for(request: &ApprovalRequest, option: Option<&str>) -> ApprovalAnswer {
    let choice = match option {
        Some(ALLOW_ONCE) => ApprovalChoice::Allow,
        Some(ALLOW_ALWAYS) if request.suggestion.is_some() => ApprovalChoice::AllowAlways,
        _ => ApprovalChoice::Deny,
    };
    ApprovalAnswer::new(request.id.clone(), choice)
}

/// Why Tandem asks, for a client that shows it: the reason, what decided, the decision's steps, the rules "don't
/// ask again" would save, warnings, and the sub-agent that asks.
pub fn decision_meta(request: &ApprovalRequest) -> Map<String, Value> {
    let mut meta = Map::new();
    meta.insert(
        "tandem".into(),
        json!({
            "requestId": request.id,
            "toolName": request.tool_name,
            "reason": request.reason,
            "decidedBy": request.decided_by,
            "trace": request.trace,
            "suggestion": request.suggestion,
            "warnings": request.warnings,
            "subAgent": request.sub_agent,
        }),
    );
    meta
}

/// The call the request is about, as the client knows it, with the proposed change as a diff.
fn asked_call(request: &ApprovalRequest) -> ToolCallUpdate {
    let mut content = Vec::new();
    for diff in request.diff.iter().chain(&request.previews) {
        let old = (!diff.is_new_file).then(|| diff.old_text.clone());
        content.push(ToolCallContent::Diff(
            Diff::new(diff.path.clone(), diff.new_text.clone()).old_text(old),
        ));
    }
    content.push(ToolCallContent::Content(acp::Content::new(
        ContentBlock::Text(TextContent::new(request.reason.clone())),
    )));
    ToolCallUpdate::new(
        request.tool_use_id.clone(),
        ToolCallUpdateFields::new()
            .title(request.title.clone())
            .kind(kind_of(&request.tool_name, request.kind))
            .status(acp::ToolCallStatus::Pending)
            .locations(locations(&request.input))
            .raw_input(request.input.clone())
            .content(content),
    )
}

/// The plan review's answer for the option chosen.
fn plan_answer(request: &PlanRequest, option: Option<&str>) -> PlanAnswer {
    let choice = match option {
        Some(PLAN_ACCEPT_EDITS) => PlanChoice::Approve {
            mode: Some(PermissionMode::AcceptEdits),
        },
        Some(PLAN_DEFAULT) => PlanChoice::Approve {
            mode: Some(PermissionMode::Default),
        },
        _ => PlanChoice::KeepPlanning {
            feedback: "The user chose to keep planning.".into(),
        },
    };
    PlanAnswer {
        request_id: request.id.clone(),
        choice,
    }
}

impl Approver for AcpApprover {
    fn ask(&self, request: ApprovalRequest) -> BoxFuture<'_, ApprovalAnswer> {
        Box::pin(async move {
            let asked = RequestPermissionRequest::new(
                self.session_id.clone(),
                asked_call(&request),
                permission_options(&request),
            )
            .meta(decision_meta(&request));
            let option = self.choose(asked).await;
            answer_for(&request, option.as_deref())
        })
    }

    fn review_plan(&self, request: PlanRequest) -> BoxFuture<'_, Result<PlanAnswer, NoAnswer>> {
        Box::pin(async move {
            let call = ToolCallUpdate::new(
                request.tool_use_id.clone(),
                ToolCallUpdateFields::new()
                    .title("Ready to code?")
                    .kind(acp::ToolKind::SwitchMode)
                    .status(acp::ToolCallStatus::Pending)
                    .content(vec![ToolCallContent::Content(acp::Content::new(
                        ContentBlock::Text(TextContent::new(request.plan.clone())),
                    ))]),
            );
            let options = vec![
                PermissionOption::new(
                    PLAN_ACCEPT_EDITS,
                    "Yes, and accept edits",
                    PermissionOptionKind::AllowAlways,
                ),
                PermissionOption::new(
                    PLAN_DEFAULT,
                    "Yes, and ask before edits",
                    PermissionOptionKind::AllowOnce,
                ),
                PermissionOption::new(
                    PLAN_KEEP,
                    "No, keep planning",
                    PermissionOptionKind::RejectOnce,
                ),
            ];
            let option = self
                .choose(RequestPermissionRequest::new(
                    self.session_id.clone(),
                    call,
                    options,
                ))
                .await;
            Ok(plan_answer(&request, option.as_deref()))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tandem_protocol::{RuleSuggestion, ToolKind};

    fn request(suggestion: Option<RuleSuggestion>) -> ApprovalRequest {
        ApprovalRequest {
            id: "q1".into(),
            session_id: "s".into(),
            tool_use_id: "b1".into(),
            tool_name: "Bash".into(),
            kind: ToolKind::Shell,
            input: json!({"command": "npm test"}),
            title: "Run npm test".into(),
            reason: "Default mode asks before running commands".into(),
            decided_by: None,
            suggestion,
            diff: None,
            trace: None,
            sub_agent: None,
            warnings: Vec::new(),
            previews: Vec::new(),
        }
    }

    #[test]
    fn options_and_answers_follow_the_dialog() {
        let suggested = request(Some(RuleSuggestion {
            rules: vec!["Bash(npm test *)".into()],
            destination: "localSettings".into(),
        }));
        let ids = |r: &ApprovalRequest| -> Vec<String> {
            permission_options(r)
                .iter()
                .map(|o| o.option_id.0.to_string())
                .collect()
        };
        assert_eq!(ids(&suggested), [ALLOW_ONCE, ALLOW_ALWAYS, REJECT_ONCE]);
        assert_eq!(ids(&request(None)), [ALLOW_ONCE, REJECT_ONCE]);

        let cases = [
            (&suggested, Some(ALLOW_ONCE), ApprovalChoice::Allow),
            (&suggested, Some(ALLOW_ALWAYS), ApprovalChoice::AllowAlways),
            (&suggested, Some(REJECT_ONCE), ApprovalChoice::Deny),
            (&suggested, None, ApprovalChoice::Deny),
            (&suggested, Some("made_up"), ApprovalChoice::Deny),
        ];
        for (r, option, choice) in cases {
            assert_eq!(answer_for(r, option).choice, choice, "{option:?}");
        }
        let plain = request(None);
        // No rule to save: "always" is not a way around the question.
        assert_eq!(
            answer_for(&plain, Some(ALLOW_ALWAYS)).choice,
            ApprovalChoice::Deny
        );
    }

    #[test]
    fn the_decision_travels_in_meta() {
        let meta = decision_meta(&request(None));
        assert_eq!(
            meta["tandem"]["reason"],
            "Default mode asks before running commands"
        );
        assert_eq!(meta["tandem"]["toolName"], "Bash");
    }
}

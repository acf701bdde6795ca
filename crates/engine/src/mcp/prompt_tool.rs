//! `--permission-prompt-tool`: an MCP tool answers the permission questions of a run that has no person to ask.
//!
//! The tool (`mcp__<server>__<tool>`, one of the session's own MCP servers) is called with
//! `{"tool_name", "input", "tool_use_id"}` and answers with one text block holding JSON: `{"behavior": "allow"}`
//! (with `updatedInput` to run the call with another input) or `{"behavior": "deny", "message": "…"}`. Only what
//! would ask reaches it: deny rules, allow rules, hooks and the mode have answered everything else before.
//! Anything else — the server missing or down, the tool failing, an answer that is not such JSON — refuses the
//! call, with the reason told to the agent.

use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use futures::future::BoxFuture;
use serde::Deserialize;
use serde_json::{Map, Value, json};
use tandem_protocol::{
    ApprovalAnswer, ApprovalChoice, ApprovalRequest, ElicitationAnswer, ElicitationRequest,
    PlanAnswer, PlanRequest, QuestionAnswer, QuestionRequest,
};
use tokio_util::sync::CancellationToken;

use super::content::convert_call_result;
use super::link::ServerLink;
use super::names::{server_prefix, tool_name};
use crate::approver::{Approver, NoAnswer};
use crate::tool::ProgressSink;

/// How long finding the tool in its server's list may take.
const LISTING_TIMEOUT: Duration = Duration::from_secs(30);

/// Every server the session has (started or not), as the manager gives them.
pub type AllLinks = Arc<dyn Fn() -> Vec<Arc<ServerLink>> + Send + Sync>;

/// Answers permission questions through an MCP tool; plans, questions and forms go to `others`.
pub struct PromptToolApprover {
    tool: String,
    links: OnceLock<AllLinks>,
    others: Arc<dyn Approver>,
    /// The server and the tool's own name there, once found: later questions skip listing its tools.
    found: Mutex<Option<(String, String)>>,
}

/// What the tool answers.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ToolAnswer {
    behavior: Behavior,
    #[serde(default)]
    updated_input: Option<Value>,
    #[serde(default)]
    message: Option<String>,
}

#[derive(Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
enum Behavior {
    Allow,
    Deny,
}

impl PromptToolApprover {
    /// An approver asking `tool`; an error says why the name cannot be an MCP tool's.
    pub fn new(tool: &str, others: Arc<dyn Approver>) -> Result<Self, String> {
        let parts: Vec<&str> = tool.splitn(3, "__").collect();
        if parts.len() != 3 || parts[0] != "mcp" || parts[1].is_empty() || parts[2].is_empty() {
            return Err(format!(
                "--permission-prompt-tool `{tool}` is not an MCP tool's name (mcp__<server>__<tool>)"
            ));
        }
        Ok(Self {
            tool: tool.to_string(),
            links: OnceLock::new(),
            others,
            found: Mutex::new(None),
        })
    }

    /// Gives it the session's MCP servers (once the session has started them).
    pub fn bind(&self, links: AllLinks) {
        let _ = self.links.set(links);
    }

    async fn answer(&self, request: &ApprovalRequest) -> Result<ApprovalAnswer, String> {
        let links = self
            .links
            .get()
            .map(|all| all())
            .ok_or("the MCP servers are not started yet")?;
        let link = links
            .into_iter()
            .filter(|link| self.tool.starts_with(&server_prefix(&link.server)))
            .max_by_key(|link| link.server.len())
            .ok_or_else(|| format!("no MCP server of this session provides `{}`", self.tool))?;
        let connection = link.ready().await?;
        let known = self
            .found
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
            .filter(|(server, _)| *server == link.server)
            .map(|(_, remote)| remote);
        let remote = match known {
            Some(remote) => remote,
            None => {
                let tools = connection
                    .list_tools(LISTING_TIMEOUT)
                    .await
                    .map_err(|e| link.describe(&e, &connection))?;
                let remote = tools
                    .iter()
                    .filter_map(|t| t.get("name").and_then(Value::as_str))
                    .find(|name| tool_name(&link.server, name) == self.tool)
                    .ok_or_else(|| {
                        format!(
                            "MCP server `{}` has no tool answering to `{}`",
                            link.server, self.tool
                        )
                    })?
                    .to_string();
                *self
                    .found
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner) =
                    Some((link.server.clone(), remote.clone()));
                remote
            }
        };
        let mut arguments = Map::new();
        arguments.insert("tool_name".into(), json!(request.tool_name));
        arguments.insert("input".into(), request.input.clone());
        arguments.insert("tool_use_id".into(), json!(request.tool_use_id));
        let result = connection
            .call_tool(
                &remote,
                Some(arguments),
                link.limits.tool_call,
                ProgressSink::default(),
                &CancellationToken::new(),
            )
            .await
            .map_err(|e| link.describe(&e, &connection))?;
        let converted = convert_call_result(&result);
        let text = converted.content.as_text();
        if converted.is_error {
            return Err(format!("`{}` failed: {}", self.tool, text.trim()));
        }
        parse_answer(&request.id, &text).map_err(|why| format!("`{}` {why}", self.tool))
    }
}

/// The answer in the tool's text: its first JSON object that is an answer.
fn parse_answer(request_id: &str, text: &str) -> Result<ApprovalAnswer, String> {
    let answer: ToolAnswer = serde_json::from_str(text.trim()).map_err(|e| {
        format!(
            "answered something other than {{\"behavior\": \"allow\" | \"deny\", …}} ({e}): {}",
            text.chars().take(200).collect::<String>()
        )
    })?;
    let mut reply = ApprovalAnswer::new(
        request_id,
        match answer.behavior {
            Behavior::Allow => ApprovalChoice::Allow,
            Behavior::Deny => ApprovalChoice::Deny,
        },
    );
    match answer.behavior {
        Behavior::Allow => {
            if let Some(updated) = answer.updated_input {
                if !updated.is_object() {
                    return Err("answered an updatedInput that is not an object".into());
                }
                reply.updated_input = Some(updated);
            }
        }
        Behavior::Deny => reply.message = answer.message,
    }
    Ok(reply)
}

impl Approver for PromptToolApprover {
    fn ask(&self, request: ApprovalRequest) -> BoxFuture<'_, ApprovalAnswer> {
        Box::pin(async move {
            match self.answer(&request).await {
                Ok(answer) => answer,
                Err(why) => {
                    tracing::warn!("the permission prompt tool did not answer: {why}");
                    let mut answer = ApprovalAnswer::new(request.id, ApprovalChoice::Deny);
                    answer.message = Some(format!(
                        "the permission prompt tool could not answer, so the call is refused: {why}"
                    ));
                    answer
                }
            }
        })
    }

    fn review_plan(&self, request: PlanRequest) -> BoxFuture<'_, Result<PlanAnswer, NoAnswer>> {
        self.others.review_plan(request)
    }

    fn ask_questions(
        &self,
        request: QuestionRequest,
    ) -> BoxFuture<'_, Result<QuestionAnswer, NoAnswer>> {
        self.others.ask_questions(request)
    }

    fn elicit(
        &self,
        request: ElicitationRequest,
    ) -> BoxFuture<'_, Result<ElicitationAnswer, NoAnswer>> {
        self.others.elicit(request)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_read_from_the_tools_json() {
        for (text, want) in [
            (
                r#"{"behavior":"allow"}"#,
                Ok((ApprovalChoice::Allow, None, None)),
            ),
            (
                r#"{"behavior":"allow","updatedInput":{"command":"ls"}}"#,
                Ok((ApprovalChoice::Allow, Some(json!({"command": "ls"})), None)),
            ),
            (
                r#" {"behavior":"deny","message":"not on Fridays"} "#,
                Ok((
                    ApprovalChoice::Deny,
                    None,
                    Some("not on Fridays".to_string()),
                )),
            ),
            (r#"{"behavior":"maybe"}"#, Err(())),
            (r#"{"behavior":"allow","updatedInput":"ls"}"#, Err(())),
            ("yes", Err(())),
            ("", Err(())),
        ] {
            let got = parse_answer("r", text)
                .map(|a| (a.choice, a.updated_input, a.message))
                .map_err(|_| ());
            assert_eq!(got, want, "{text}");
        }
    }

    #[test]
    fn the_name_must_be_an_mcp_tools() {
        let others: Arc<dyn Approver> =
            Arc::new(crate::approver::FixedApprover(ApprovalChoice::Deny));
        for (name, ok) in [
            ("mcp__perms__approve", true),
            ("mcp__my_server__a__b", true),
            ("approve", false),
            ("mcp__perms", false),
            ("mcp____approve", false),
            ("Bash", false),
        ] {
            assert_eq!(
                PromptToolApprover::new(name, others.clone()).is_ok(),
                ok,
                "{name}"
            );
        }
    }
}

//! The Agent tool (alias Task): starts a sub-agent with its own conversation and tools, synchronously (its answer is
//! the result) or in the background (a task id, its answer read later with TaskOutput). The run itself belongs to
//! the session, reached through the call's [`crate::tool::SubAgentRunner`]; this module only knows the agent types.

mod call_options;
pub mod catalog;
pub mod definition;
mod own_hooks;

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use tandem_protocol::{RenderHints, ToolDetail, ToolKind};

pub use call_options::AgentMode;
pub use catalog::{AgentCatalog, AgentFileIssue};
pub use definition::{
    ALL_AGENT_DISALLOWED_TOOLS, AgentDefinition, AgentSource, FORK, GENERAL_PURPOSE,
    TEAM_MEMBER_TOOLS,
};

use crate::tool::names;
use crate::tool::{
    ForkStart, InterruptBehavior, LEAD_NAME, MemberSpec, PermissionSubject, SubAgentError,
    SubAgentReport, SubAgentRequest, Tool, ToolContext, ToolError, ToolOutput,
};
use crate::tools::responses::{self, AgentLaunched, AgentResponse};

/// A model a sub-agent may run on instead of its type's or the session's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum AgentModel {
    Sonnet,
    Opus,
    Haiku,
}

impl AgentModel {
    fn as_str(self) -> &'static str {
        match self {
            Self::Sonnet => "sonnet",
            Self::Opus => "opus",
            Self::Haiku => "haiku",
        }
    }
}

/// Starts a sub-agent.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AgentInput {
    /// A short (3-5 word) description of the task.
    pub description: String,
    /// The task for the agent to perform. The agent sees nothing of this conversation, so say everything it needs.
    pub prompt: String,
    /// The type of specialised agent to use for this task (one of the types listed in the tool's description;
    /// default: general-purpose).
    #[serde(default)]
    pub subagent_type: Option<String>,
    /// A model to use for this agent instead of the one its type or this conversation uses.
    #[serde(default)]
    pub model: Option<AgentModel>,
    /// Run the agent in the background: the call returns at once with a task id, and TaskOutput reads the agent's
    /// answer once it has finished.
    #[serde(default)]
    pub run_in_background: Option<bool>,
    /// "worktree": run the agent in a temporary git worktree on a new branch, isolated from the working copy. The
    /// result names the branch and the files it changed; a worktree without changes is removed. "remote" (only where
    /// this tool's description offers it): run the agent on the configured remote machine.
    #[serde(default)]
    pub isolation: Option<Isolation>,
    /// With team_name: the name the new team member is addressed by (SendMessage).
    #[serde(default)]
    pub name: Option<String>,
    /// Add the agent to this team (made with TeamCreate) as a member named `name`, working in the background.
    #[serde(default)]
    pub team_name: Option<String>,
    /// The permission mode the agent runs in instead of its type's: `plan`, `dontAsk` and `default` always;
    /// `acceptEdits` or `bypassPermissions` only when this conversation is in that mode already (`acceptEdits`
    /// also from `bypassPermissions`).
    #[serde(default)]
    pub mode: Option<AgentMode>,
    /// The folder the agent works in (absolute, or relative to the current one), inside the working directories;
    /// default: the current folder. With isolation "worktree", the same folder in the worktree.
    #[serde(default)]
    pub cwd: Option<String>,
}

/// Where a sub-agent works.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Isolation {
    /// A new git worktree on a new branch.
    Worktree,
    /// Tandem on the machine of the settings' `remoteAgentHost`, over SSH.
    Remote,
}

impl AgentInput {
    fn agent_type(&self) -> &str {
        self.subagent_type
            .as_deref()
            .filter(|t| !t.trim().is_empty())
            .unwrap_or(GENERAL_PURPOSE)
    }
}

/// The Agent tool, knowing the agent types it offers.
#[derive(Debug, Clone)]
pub struct AgentTool {
    catalog: Arc<AgentCatalog>,
    /// The settings' `remoteAgentHost` (`None`: `isolation: "remote"` is refused and not described).
    remote_host: Option<String>,
}

impl AgentTool {
    /// The tool offering the types of `catalog` (already without the types deny rules remove).
    pub fn new(catalog: Arc<AgentCatalog>) -> Self {
        Self {
            catalog,
            remote_host: None,
        }
    }

    /// The same, offering `isolation: "remote"` on `host` when given (fixed for the session, so the description
    /// stays stable).
    pub fn with_remote_host(self, host: Option<String>) -> Self {
        Self {
            remote_host: host,
            ..self
        }
    }
}

fn tools_line(agent: &AgentDefinition) -> String {
    let allowed = match &agent.tools {
        None => "*".to_string(),
        Some(list) => list
            .iter()
            .filter(|t| agent.allows(t))
            .cloned()
            .collect::<Vec<_>>()
            .join(", "),
    };
    if agent.disallowed_tools.is_empty() {
        allowed
    } else {
        format!("{allowed} except {}", agent.disallowed_tools.join(", "))
    }
}

/// What the result says about a run's worktree.
fn worktree_text(report: &SubAgentReport) -> String {
    let Some(wt) = &report.worktree else {
        return String::new();
    };
    if wt.kept {
        format!(
            "\n\nThe agent worked in the git worktree {} on branch {}. Changed files: {}. The worktree is kept for \
             the user to merge or discard.",
            wt.path.display(),
            wt.branch,
            wt.changed_files.join(", ")
        )
    } else {
        format!(
            "\n\nThe agent worked in a git worktree on branch {} and changed nothing; the worktree and the branch \
             were removed.",
            wt.branch
        )
    }
}

/// What the result says about a run on another machine.
fn remote_text(report: &SubAgentReport) -> String {
    let Some(remote) = &report.remote else {
        return String::new();
    };
    let changed = match remote.changed_files.as_slice() {
        [] => "It changed no files there.".to_string(),
        files => format!("Files it changed there: {}.", files.join(", ")),
    };
    format!(
        "\n\nThe agent worked on the remote machine {} (not in this working copy). {changed}",
        remote.url
    )
}

/// The result text the parent model gets for a finished run.
fn report_text(report: &SubAgentReport) -> String {
    let answer = if report.final_text.trim().is_empty() {
        "(the agent gave no answer)"
    } else {
        report.final_text.as_str()
    };
    // A remote agent's tokens are counted by the Tandem that ran it.
    let tokens = match &report.remote {
        Some(_) => "tokens counted on the remote machine".to_string(),
        None => format!(
            "{} tokens",
            report.usage.input_tokens + report.usage.output_tokens
        ),
    };
    format!(
        "{answer}{}{}\n\nagentId: {} ({} agent; {} tool calls, {tokens}, {} ms)",
        worktree_text(report),
        remote_text(report),
        report.agent_id,
        report.agent_type,
        report.tool_calls,
        report.duration_ms
    )
}

/// The UI's detail of a finished run.
fn report_detail(report: &SubAgentReport, description: &str) -> ToolDetail {
    ToolDetail::SubAgent {
        agent_id: report.agent_id.clone(),
        agent_type: report.agent_type.clone(),
        description: description.to_string(),
        tool_calls: report.tool_calls,
        usage: report.usage,
        duration_ms: report.duration_ms,
    }
}

/// Where a fork of the calling agent starts: the request of the step that called Agent (its system prompt and
/// messages); `None` outside the session's own conversation.
fn fork_start(ctx: &ToolContext) -> Option<ForkStart> {
    let sent = ctx.conversation.as_ref()?.sent()?;
    Some(ForkStart {
        system: sent.system.clone(),
        messages: sent.messages.clone(),
    })
}

/// Starts the agent as a new member of an existing team (`team_name` and `name`).
fn join_team(input: &AgentInput, ctx: &ToolContext) -> Result<ToolOutput, ToolError> {
    let (Some(team), Some(name)) = (input.team_name.as_deref(), input.name.as_deref()) else {
        return Err(ToolError::to_model(
            "name and team_name go together: give both to add a member to a team, or neither.",
        ));
    };
    let Some(seat) = &ctx.team else {
        return Err(ToolError::to_model(
            "Teams are not available in this session.",
        ));
    };
    if seat.me != LEAD_NAME {
        return Err(ToolError::to_model("Only the team lead can add members."));
    }
    if input.isolation.is_some()
        || input.run_in_background == Some(false)
        || input.cwd.is_some()
        || input.mode.is_some()
    {
        return Err(ToolError::to_model(
            "A team member works in the background in the session's folder; leave out isolation, \
             run_in_background, cwd and mode.",
        ));
    }
    let member = MemberSpec {
        name: name.trim().to_string(),
        prompt: input.prompt.clone(),
        agent_type: Some(input.agent_type().to_string()),
        model: input.model.map(|m| m.as_str().to_string()),
    };
    let info = seat
        .door
        .add_member(team.trim(), member, &ctx.tool_use_id)
        .map_err(|e| ToolError::to_model(e.to_string()))?;
    Ok(ToolOutput::text(format!(
        "{name} joined team {} ({} members) and is working in the background. Its messages reach you at your next \
         turn; message it with SendMessage.",
        info.name,
        info.members.len()
    )))
}

/// What TaskOutput says about the background sub-agent `task_id` (`None`: it still runs).
pub fn background_result(
    task_id: &str,
    outcome: Option<Result<SubAgentReport, SubAgentError>>,
) -> ToolOutput {
    match outcome {
        None => ToolOutput::text(format!(
            "Task {task_id} is running (a background agent; its answer is not ready yet)."
        )),
        Some(Ok(report)) => ToolOutput::text(format!(
            "Task {task_id} is completed.\n{}",
            report_text(&report)
        ))
        .with_detail(report_detail(&report, task_id)),
        Some(Err(e)) => ToolOutput::text(format!("Task {task_id} ended without an answer: {e}")),
    }
}

impl Tool for AgentTool {
    type Input = AgentInput;

    fn output_schema(&self) -> Option<serde_json::Value> {
        responses::schema::<AgentResponse>()
    }

    fn name(&self) -> &'static str {
        names::AGENT
    }

    fn aliases(&self) -> &'static [&'static str] {
        &[names::TASK]
    }

    fn description(&self) -> String {
        let mut text = String::from(
            "Launch a new agent to handle complex, multi-step tasks on its own. Each agent type has its own tools; \
             the agent sees none of this conversation, so the prompt must say everything it needs. Its final answer \
             comes back as this tool's result (it is not shown to the user: summarise it for them). Launch several \
             agents at once when their tasks are independent.\n\nAvailable agent types and the tools they have:\n",
        );
        for agent in &self.catalog.agents {
            text.push_str(&format!(
                "- {}: {} (Tools: {})\n",
                agent.name,
                agent.description,
                tools_line(agent)
            ));
        }
        text.push_str(&format!(
            "- {FORK}: a copy of you that starts from this conversation so far (your instructions, everything said \
             and every tool result), with the general-purpose agent's tools. Give it only the task: it knows what \
             you know. Use it for a side task that needs the context you have built up.\n"
        ));
        text.push_str(
            "\nWhen subagent_type is left out, the general-purpose agent is used. With run_in_background the call \
             returns a task id at once; read the agent's answer later with TaskOutput.",
        );
        if let Some(host) = &self.remote_host {
            text.push_str(&format!(
                "\n\nWith isolation \"remote\" the agent runs on another machine, {host}, in that folder there \
                 (its own files and tools, not this working copy); the result names the files it changed there. \
                 A remote agent cannot be a fork or take cwd or mode."
            ));
        }
        text
    }

    fn is_concurrency_safe(&self, _input: &AgentInput) -> bool {
        true
    }

    fn interrupt_behavior(&self) -> InterruptBehavior {
        InterruptBehavior::Cancel
    }

    fn render_hints(&self, input: &AgentInput, _ctx: &ToolContext) -> RenderHints {
        let place = match (&input.isolation, &self.remote_host) {
            (Some(Isolation::Remote), Some(host)) => format!(", on {host}"),
            _ => String::new(),
        };
        RenderHints {
            kind: ToolKind::Other,
            title: format!("{} ({}{place})", input.description, input.agent_type()),
            collapsible: true,
        }
    }

    fn permission_subject(&self, input: &AgentInput, _ctx: &ToolContext) -> PermissionSubject {
        PermissionSubject::Agent {
            subagent_type: Some(input.agent_type().to_string()),
        }
    }

    async fn validate_input(&self, input: &AgentInput, ctx: &ToolContext) -> Result<(), String> {
        let kind = input.agent_type();
        if kind == FORK {
            if input.team_name.is_some() || input.name.is_some() {
                return Err("a fork cannot join a team; leave out name and team_name".into());
            }
            if fork_start(ctx).is_none() {
                return Err(
                    "a fork starts from the session's own conversation, and there is none to copy here".into(),
                );
            }
        } else if self.catalog.find(kind).is_none() {
            return Err(SubAgentError::UnknownType {
                name: kind.to_string(),
                available: self.catalog.names(),
            }
            .to_string());
        }
        if let Some(mode) = input.mode
            && !call_options::mode_allowed(mode.permission_mode(), ctx.mode)
        {
            return Err(format!(
                "mode {} is more permissive than this conversation's ({}); a sub-agent may run in plan, dontAsk,                  default or this conversation's own mode",
                mode.permission_mode().as_str(),
                ctx.mode.as_str()
            ));
        }
        if input.isolation == Some(Isolation::Remote) {
            call_options::remote_allowed(input, kind, self.remote_host.as_deref())?;
        }
        if let Some(cwd) = &input.cwd {
            call_options::working_folder(cwd, &ctx.cwd, &ctx.working_dirs)?;
        }
        Ok(())
    }

    async fn call(&self, input: &AgentInput, ctx: &ToolContext) -> Result<ToolOutput, ToolError> {
        if input.team_name.is_some() || input.name.is_some() {
            return join_team(input, ctx);
        }
        let Some(runner) = ctx.sub_agents.clone() else {
            return Err(ToolError::to_model("Sub-agents are not available here."));
        };
        let request = SubAgentRequest {
            agent_type: input.agent_type().to_string(),
            description: input.description.clone(),
            prompt: input.prompt.clone(),
            model: input.model.map(|m| m.as_str().to_string()),
            parent_tool_use_id: ctx.tool_use_id.clone(),
            cancel: ctx.cancel.clone(),
            worktree: input.isolation == Some(Isolation::Worktree),
            remote: input.isolation == Some(Isolation::Remote),
            branch: None,
            mode: input.mode.map(AgentMode::permission_mode),
            cwd: match &input.cwd {
                Some(cwd) => Some(
                    call_options::working_folder(cwd, &ctx.cwd, &ctx.working_dirs)
                        .map_err(ToolError::to_model)?,
                ),
                None => None,
            },
            fork: if input.agent_type() == FORK {
                Some(fork_start(ctx).ok_or_else(|| {
                    ToolError::to_model(
                        "a fork starts from the session's own conversation, and there is none here",
                    )
                })?)
            } else {
                None
            },
        };
        if input.run_in_background == Some(true) {
            let task_id = runner
                .start_background(request)
                .map_err(|e| ToolError::to_model(e.to_string()))?;
            let launched = AgentResponse::AsyncLaunched(AgentLaunched {
                agent_id: task_id.clone(),
                description: input.description.clone(),
                prompt: input.prompt.clone(),
            });
            return Ok(ToolOutput::text(format!(
                "The {} agent is running in the background with task id {task_id}. Read its answer with \
                 TaskOutput once it has finished.",
                input.agent_type()
            ))
            .with_structured(&launched));
        }
        match runner.run(request).await {
            Ok(report) => Ok(ToolOutput::text(report_text(&report))
                .with_detail(report_detail(&report, &input.description))
                .with_structured(&AgentResponse::completed(&report, &input.prompt))),
            Err(SubAgentError::Cancelled) => Err(ToolError::Cancelled),
            Err(SubAgentError::StoppedByPerson) => Err(ToolError::to_model(format!(
                "The user stopped the {} agent (\"{}\") before it finished; it gave no answer. Do not start it \
                 again unless the user asks.",
                input.agent_type(),
                input.description
            ))),
            Err(e) => Err(ToolError::to_model(e.to_string())),
        }
    }
}

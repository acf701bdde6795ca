//! SuggestBackgroundPR (behind `USER_TYPE=ant`): the model proposes that a piece of work be done in the background
//! and become a pull request (a title, a description of the work, a branch). It asks the person in every mode
//! unless a rule allows it; once approved it checks that there is a token and a GitHub `origin` (a clear error
//! before any work starts otherwise), then starts a background sub-agent in a fresh git worktree on that branch.
//! When the agent finishes with commits, the branch is pushed and the pull request opened ([`super::land`]); the
//! outcome reaches the agent as a background notification.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use tandem_protocol::{RenderHints, ToolKind};
use tokio_util::sync::CancellationToken;

use super::api::Api;
use super::config::GithubSource;
use super::land::{Landing, git};
use super::pr_ref::origin_repo;
use crate::tool::{
    PermissionSubject, SubAgentRequest, Tool, ToolContext, ToolError, ToolOutput, names,
};

/// The longest title, in characters.
const MAX_TITLE: usize = 200;

/// SuggestBackgroundPR's input.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SuggestBackgroundPrInput {
    /// The pull request's title.
    pub title: String,
    /// What the work is, in full: it is the background agent's task and the pull request's description.
    pub body: String,
    /// The new branch the work is committed on and the pull request is opened from (e.g. `fix/login-timeout`).
    pub branch: String,
    /// The branch the pull request goes into (default: the folder's current branch).
    pub base: Option<String>,
}

/// The SuggestBackgroundPR tool.
#[derive(Debug, Clone)]
pub struct SuggestBackgroundPrTool {
    source: GithubSource,
}

impl SuggestBackgroundPrTool {
    /// A SuggestBackgroundPR reading GitHub's address and token from `source`.
    pub fn new(source: GithubSource) -> Self {
        Self { source }
    }
}

/// The background agent's task.
fn agent_prompt(input: &SuggestBackgroundPrInput, base: &str) -> String {
    format!(
        "{}\n\nYou are working in a fresh git worktree on the new branch `{}` (from `{base}`); your work becomes a \
         pull request titled \"{}\". Commit your finished work on this branch with `git commit` — do not push and \
         do not switch branches: when you end, the commits on `{}` are pushed and the pull request is opened. End \
         with a short summary of what you changed.",
        input.body.trim(),
        input.branch,
        input.title.trim(),
        input.branch
    )
}

impl Tool for SuggestBackgroundPrTool {
    type Input = SuggestBackgroundPrInput;

    fn name(&self) -> &'static str {
        names::SUGGEST_BACKGROUND_PR
    }

    fn description(&self) -> String {
        "Propose that a self-contained piece of work be done in the background and delivered as a GitHub pull \
         request: give its title, a full description of the work (body: the background agent's task and the pull \
         request's description) and a new branch name. The user is asked to approve. Once approved, a background \
         agent does the work in a fresh git worktree on that branch and commits it; the branch is then pushed to \
         origin and the pull request opened, and you are sent a <background-pr-notification> with its URL. Needs a \
         GitHub token and an origin remote on GitHub."
            .into()
    }

    fn render_hints(&self, input: &SuggestBackgroundPrInput, _ctx: &ToolContext) -> RenderHints {
        RenderHints {
            kind: ToolKind::Other,
            title: format!(
                "Background pull request \"{}\" on {}",
                input.title.trim(),
                input.branch.trim()
            ),
            collapsible: false,
        }
    }

    fn permission_subject(
        &self,
        _input: &SuggestBackgroundPrInput,
        _ctx: &ToolContext,
    ) -> PermissionSubject {
        // Asks in every mode unless a rule allows it (permission::decide).
        PermissionSubject::Tool
    }

    async fn validate_input(
        &self,
        input: &SuggestBackgroundPrInput,
        ctx: &ToolContext,
    ) -> Result<(), String> {
        let title = input.title.trim();
        if title.is_empty() {
            return Err("title must not be empty".into());
        }
        if title.chars().count() > MAX_TITLE {
            return Err(format!("title has more than {MAX_TITLE} characters"));
        }
        if input.body.trim().is_empty() {
            return Err("body (the work to do) must not be empty".into());
        }
        let branch = input.branch.trim();
        if branch.is_empty() || branch.starts_with('-') {
            return Err("branch must be a new branch name".into());
        }
        git(&ctx.cwd, &["check-ref-format", "--branch", branch])
            .map_err(|_| format!("`{branch}` is not a valid branch name"))?;
        if git(
            &ctx.cwd,
            &[
                "rev-parse",
                "--verify",
                "--quiet",
                &format!("refs/heads/{branch}"),
            ],
        )
        .is_ok()
        {
            return Err(format!(
                "the branch `{branch}` already exists; choose a new name"
            ));
        }
        Ok(())
    }

    async fn call(
        &self,
        input: &SuggestBackgroundPrInput,
        ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let config = self.source.config();
        let token = config.require_token().map_err(ToolError::to_model)?;
        let repo = origin_repo(&ctx.cwd, &config.web_host()).map_err(|e| {
            ToolError::to_model(format!(
                "{e}; SuggestBackgroundPR opens pull requests on GitHub, so nothing was started"
            ))
        })?;
        let repo_dir = crate::tools::worktree::main_repo(&ctx.cwd)
            .map_err(|e| ToolError::to_model(e.to_string()))?;
        let base = match &input.base {
            Some(base) if !base.trim().is_empty() => base.trim().to_string(),
            _ => git(&ctx.cwd, &["symbolic-ref", "--short", "HEAD"])
                .map(|b| b.trim().to_string())
                .map_err(|e| {
                    ToolError::to_model(format!(
                        "the folder is not on a branch ({e}); give base, the branch the pull request goes into"
                    ))
                })?,
        };
        let (Some(runner), Some(mailbox)) = (ctx.sub_agents.clone(), ctx.mailbox.clone()) else {
            return Err(ToolError::to_model(
                "Background agents are not available here; nothing was started.",
            ));
        };
        let api =
            Api::new(&config.api_url, token).map_err(|e| ToolError::to_model(e.to_string()))?;
        let branch = input.branch.trim().to_string();
        let request = SubAgentRequest {
            agent_type: crate::tools::agent::GENERAL_PURPOSE.to_string(),
            description: crate::text::cut_middle(input.title.trim(), 60, "title"),
            prompt: agent_prompt(input, &base),
            model: None,
            parent_tool_use_id: ctx.tool_use_id.clone(),
            cancel: CancellationToken::new(),
            worktree: true,
            branch: Some(branch.clone()),
            mode: None,
            cwd: None,
            fork: None,
            remote: false,
        };
        let task_id = runner
            .start_background(request)
            .map_err(|e| ToolError::to_model(e.to_string()))?;
        let landing = Landing {
            api,
            repo: repo.clone(),
            repo_dir,
            branch: branch.clone(),
            base: base.clone(),
            title: input.title.trim().to_string(),
            body: input.body.trim().to_string(),
            task_id: task_id.clone(),
            runner: Arc::downgrade(&runner),
            mailbox: Arc::downgrade(&mailbox),
        };
        tokio::spawn(landing.run());
        Ok(ToolOutput::text(format!(
            "A background agent (task {task_id}) is doing the work on the new branch {branch} in its own worktree. \
             When it finishes with commits, {branch} is pushed to origin and a pull request into {base} is opened \
             on {repo}; you will be sent a <background-pr-notification> with the outcome. There is no need to wait \
             or poll."
        )))
    }
}

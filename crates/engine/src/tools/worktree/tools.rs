//! EnterWorktree and ExitWorktree: the main conversation moves into a new git worktree on a new branch (tools
//! start there from the next call on) and back out of it, keeping the worktree for the person to merge or discard
//! from the window, or removing it.

use schemars::JsonSchema;
use serde::Deserialize;
use tandem_protocol::{RenderHints, ToolKind};

use super::{changed_files, create, discard, is_tandem_worktree, kept};
use crate::tool::names;
use crate::tool::{ContextChange, Tool, ToolContext, ToolError, ToolOutput};

/// Makes a worktree and moves the session into it.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EnterWorktreeInput {
    /// A short name for the worktree and its branch (letters, digits and dashes); a random one when left out.
    #[serde(default)]
    pub name: Option<String>,
}

/// What to do with the worktree when leaving it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ExitAction {
    /// Keep the worktree and its branch (the user merges or discards it later).
    Keep,
    /// Remove the worktree and its branch.
    Remove,
}

/// Leaves the worktree the session works in.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExitWorktreeInput {
    pub action: ExitAction,
    /// With `remove`: confirm that uncommitted or unmerged changes may be thrown away.
    #[serde(default)]
    pub discard_changes: bool,
}

#[derive(Debug, Clone, Copy, Default)]
pub struct EnterWorktreeTool;

#[derive(Debug, Clone, Copy, Default)]
pub struct ExitWorktreeTool;

fn hints(title: &str) -> RenderHints {
    RenderHints {
        kind: ToolKind::Other,
        title: title.into(),
        collapsible: false,
    }
}

fn git_error(e: super::GitError) -> ToolError {
    ToolError::to_model(e.to_string())
}

impl Tool for EnterWorktreeTool {
    type Input = EnterWorktreeInput;

    fn name(&self) -> &'static str {
        names::ENTER_WORKTREE
    }

    fn description(&self) -> String {
        "Create a git worktree on a new branch and move this session into it, to work isolated from the user's \
         working copy. Tools start in the worktree from the next call on. Leave it with ExitWorktree."
            .into()
    }

    fn render_hints(&self, _input: &EnterWorktreeInput, _ctx: &ToolContext) -> RenderHints {
        hints("Enter a new worktree")
    }

    async fn validate_input(
        &self,
        _input: &EnterWorktreeInput,
        ctx: &ToolContext,
    ) -> Result<(), String> {
        if is_tandem_worktree(&ctx.cwd) {
            return Err(
                "The session already works in a worktree; leave it with ExitWorktree first.".into(),
            );
        }
        Ok(())
    }

    async fn call(
        &self,
        input: &EnterWorktreeInput,
        ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let name = input
            .name
            .clone()
            .filter(|n| !n.trim().is_empty())
            .unwrap_or_else(|| uuid::Uuid::new_v4().simple().to_string()[..8].to_string());
        let wt = create(&ctx.cwd, &name).map_err(git_error)?;
        Ok(ToolOutput::text(format!(
            "Created the worktree {} on branch {}. This session now works there: tools start in it, and the \
             user's working copy is left alone.",
            wt.path.display(),
            wt.branch
        ))
        .with_context_change(ContextChange::MoveTo(Some(wt.path))))
    }
}

impl Tool for ExitWorktreeTool {
    type Input = ExitWorktreeInput;

    fn name(&self) -> &'static str {
        names::EXIT_WORKTREE
    }

    fn description(&self) -> String {
        "Leave the worktree EnterWorktree made and go back to the project folder: `keep` leaves the worktree and \
         its branch for the user to merge or discard; `remove` deletes both (with changes, only with \
         discard_changes: true)."
            .into()
    }

    fn render_hints(&self, input: &ExitWorktreeInput, _ctx: &ToolContext) -> RenderHints {
        hints(match input.action {
            ExitAction::Keep => "Leave the worktree (keep it)",
            ExitAction::Remove => "Leave and remove the worktree",
        })
    }

    async fn validate_input(
        &self,
        _input: &ExitWorktreeInput,
        ctx: &ToolContext,
    ) -> Result<(), String> {
        if !is_tandem_worktree(&ctx.cwd) {
            return Err("The session does not work in a worktree made by EnterWorktree.".into());
        }
        Ok(())
    }

    async fn call(
        &self,
        input: &ExitWorktreeInput,
        ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let branch = super::git::git(&ctx.cwd, &["rev-parse", "--abbrev-ref", "HEAD"])
            .map_err(git_error)?
            .trim()
            .to_string();
        let (_, wt) = kept(&ctx.cwd, &branch).map_err(git_error)?;
        let changed = if wt.changed_files.is_empty() {
            changed_files(&wt.path, "HEAD").map_err(git_error)?
        } else {
            wt.changed_files.clone()
        };
        let text = match input.action {
            ExitAction::Keep => format!(
                "Left the worktree {} (kept on branch {}; changed files: {}). The session works in the project \
                 folder again.",
                wt.path.display(),
                branch,
                if changed.is_empty() {
                    "none".to_string()
                } else {
                    changed.join(", ")
                }
            ),
            ExitAction::Remove => {
                if !changed.is_empty() && !input.discard_changes {
                    return Err(ToolError::to_model(format!(
                        "The worktree has changes ({}); removing it would throw them away. Keep it, or pass \
                         discard_changes: true.",
                        changed.join(", ")
                    )));
                }
                discard(&ctx.cwd, &branch).map_err(git_error)?;
                format!(
                    "Removed the worktree and branch {branch}. The session works in the project folder again."
                )
            }
        };
        Ok(ToolOutput::text(text).with_context_change(ContextChange::MoveTo(None)))
    }
}

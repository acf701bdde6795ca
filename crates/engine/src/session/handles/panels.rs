//! The panels' handle: the rules view, adding, removing and moving rules between the local, project and user
//! settings files (applied at once), testing a call against the rules in force, the hooks by event and running one
//! hook on a sample input, and the agent's to-do and task lists.

use serde_json::Value;
use tandem_protocol::{
    CallCheck, DecisionBehavior, HookListing, HookTestResult, RuleFiles, RuleScope, RulesView,
};

use super::SettingsState;
use crate::exec::ToolRuntime;
use crate::hooks::{HookEvent, HookInput, hook_listing, test_hook};
use crate::permission::{
    RuleBehavior, SaveError, add_rules, check_call, move_rule, remove_rule, rule_listing,
};
use crate::tools::work_list::WorkBoard;

fn rule_behavior(b: DecisionBehavior) -> RuleBehavior {
    match b {
        DecisionBehavior::Allow => RuleBehavior::Allow,
        DecisionBehavior::Ask => RuleBehavior::Ask,
        DecisionBehavior::Deny => RuleBehavior::Deny,
    }
}

/// Why a hook could not be tried.
#[derive(Debug, thiserror::Error)]
pub enum HookTestError {
    #[error("`{0}` is not a hook event")]
    UnknownEvent(String),
    #[error("no {event} hook runs `{command}`")]
    UnknownHook { event: String, command: String },
}

/// What the rules, hooks and work-list panels hold of a session.
#[derive(Clone, Copy)]
pub struct PanelsHandle<'a> {
    pub(in crate::session) id: &'a str,
    pub(in crate::session) settings: &'a SettingsState,
    pub(in crate::session) runtime: &'a ToolRuntime,
    pub(in crate::session) work_board: &'a WorkBoard,
}

impl PanelsHandle<'_> {
    /// The settings file rules of `scope` are written in (local, project and user settings only).
    fn rule_file(&self, scope: RuleScope) -> Result<std::path::PathBuf, SaveError> {
        let paths = self.settings.loader().paths;
        match scope {
            RuleScope::LocalSettings => Ok(paths.local),
            RuleScope::ProjectSettings => Ok(paths.project),
            RuleScope::UserSettings => paths.user.ok_or(SaveError::NotEditable {
                scope: "userSettings (no home directory)",
            }),
            other => Err(SaveError::NotEditable {
                scope: other.as_str(),
            }),
        }
    }

    /// Every rule of every source with its scope, file and conflicts; the editable files; the folder's trust.
    pub fn rules_view(&self) -> RulesView {
        let loader = self.settings.loader();
        let ctx = self.runtime.permission_context();
        RulesView {
            rules: rule_listing(&ctx),
            files: RuleFiles {
                local: loader.paths.local.display().to_string(),
                project: loader.paths.project.display().to_string(),
                user: loader.paths.user.as_ref().map(|p| p.display().to_string()),
            },
            trust: loader.folder_trust(),
        }
    }

    /// Adds `rule` (checked by the rule parser) to the `behavior` list of `scope`'s settings file; it applies at once.
    pub fn add_rule(
        &self,
        scope: RuleScope,
        behavior: DecisionBehavior,
        rule: &str,
    ) -> Result<(), SaveError> {
        add_rules(
            &self.rule_file(scope)?,
            rule_behavior(behavior),
            &[rule.to_string()],
        )?;
        self.settings.reload(self.runtime);
        Ok(())
    }

    /// Removes `rule` from the `behavior` list of `scope`'s settings file; it stops applying at once.
    pub fn remove_rule(
        &self,
        scope: RuleScope,
        behavior: DecisionBehavior,
        rule: &str,
    ) -> Result<(), SaveError> {
        remove_rule(&self.rule_file(scope)?, rule_behavior(behavior), rule)?;
        self.settings.reload(self.runtime);
        Ok(())
    }

    /// Moves `rule` of the `behavior` list from `from`'s settings file to `to`'s.
    pub fn move_rule(
        &self,
        from: RuleScope,
        to: RuleScope,
        behavior: DecisionBehavior,
        rule: &str,
    ) -> Result<(), SaveError> {
        move_rule(
            &self.rule_file(from)?,
            &self.rule_file(to)?,
            rule_behavior(behavior),
            rule,
        )?;
        self.settings.reload(self.runtime);
        Ok(())
    }

    /// What the rules in force answer for a call of `tool` with `input`, with the trace (nothing runs).
    pub fn check_call(&self, tool: &str, input: &Value) -> CallCheck {
        let ctx = self.runtime.permission_context();
        let answer = check_call(&ctx, &self.runtime.pool.all(), tool, input);
        CallCheck {
            decision: answer.decision,
            reason: answer.reason,
            trace: answer.trace.unwrap_or_default(),
            suggestions: answer.suggestions,
        }
    }

    fn hook_input(&self) -> HookInput {
        let ctx = self.runtime.permission_context();
        HookInput {
            session_id: self.id.to_string(),
            transcript_path: crate::hooks::given_path(&crate::hooks::transcript_path(self.id)),
            cwd: ctx.cwd.clone(),
            permission_mode: ctx.mode.as_str().to_string(),
            project_dir: ctx.project_root.clone(),
        }
    }

    /// Every configured hook by event, with its source, matcher, whether it is in force and a sample input.
    pub fn hooks_view(&self) -> Vec<HookListing> {
        let loaded = self.settings.loader().read_settings();
        let ctx = self.runtime.permission_context();
        hook_listing(&loaded.hooks, &ctx.hooks, &self.hook_input())
    }

    /// Runs the `event` hook that runs `command` once, for real, with `input` on stdin, and says what it would decide.
    pub async fn test_hook(
        self,
        event: &str,
        command: &str,
        input: &Value,
    ) -> Result<HookTestResult, HookTestError> {
        let kind =
            HookEvent::parse(event).ok_or_else(|| HookTestError::UnknownEvent(event.into()))?;
        let loaded = self.settings.loader().read_settings();
        let hook = loaded
            .hooks
            .events
            .get(&kind)
            .into_iter()
            .flatten()
            .flat_map(|m| m.hooks.iter())
            .find(|h| h.command == command)
            .cloned()
            .ok_or_else(|| HookTestError::UnknownHook {
                event: event.into(),
                command: command.into(),
            })?;
        let ctx = self.runtime.permission_context();
        Ok(test_hook(&hook, kind, input, &ctx.cwd, &ctx.project_root).await)
    }

    /// The to-do list now (TodoWrite's), e.g. to pin it when a stored session is reopened.
    pub fn todos(&self) -> Vec<tandem_protocol::TodoItem> {
        self.work_board.todos()
    }

    /// The task list now (the task tools').
    pub fn tasks(&self) -> Vec<tandem_protocol::TaskItem> {
        self.work_board.tasks()
    }
}

//! EnterPlanMode and ExitPlanMode: the agent asks to plan before it changes anything (the person confirms through
//! the ordinary permission dialog; then the mode is plan, where edits are refused), and presents its plan for
//! approval (the plan dialog: approve and leave plan mode — into the mode before it or the one the person picks — or
//! keep planning with feedback).

use std::sync::{Arc, Mutex};

use schemars::JsonSchema;
use serde::Deserialize;
use tandem_protocol::{PermissionMode, PlanChoice, RenderHints, ToolKind};

use crate::tool::names;
use crate::tool::{ContextChange, PersonError, Tool, ToolContext, ToolError, ToolOutput};

/// Takes no parameters.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EnterPlanModeInput {}

/// Presents the plan for approval.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExitPlanModeInput {
    /// The plan, in markdown: what will be changed, where, in which order, and how it will be checked. Concise but
    /// complete enough to approve.
    pub plan: String,
}

/// Switches the session into plan mode once the person agrees.
#[derive(Debug, Clone, Copy, Default)]
pub struct EnterPlanModeTool;

/// Shows the plan to the person and leaves plan mode when they approve it; the approved plan is kept in
/// `approved` (VerifyPlanExecution checks the work against it).
#[derive(Debug, Clone, Default)]
pub struct ExitPlanModeTool {
    pub approved: Arc<ApprovedPlan>,
}

/// The plan the person last approved in this session.
#[derive(Debug, Default)]
pub struct ApprovedPlan(Mutex<Option<String>>);

impl ApprovedPlan {
    pub fn set(&self, plan: &str) {
        if let Ok(mut slot) = self.0.lock() {
            *slot = Some(plan.to_string());
        }
    }

    /// The plan, if one was approved.
    pub fn get(&self) -> Option<String> {
        self.0.lock().ok().and_then(|slot| slot.clone())
    }
}

const ENTERED: &str = "Entered plan mode. Explore the codebase and design an implementation approach: read files, \
search, and run read-only commands. Do NOT write or edit any files yet — edits are refused in plan mode. When the \
plan is ready, present it with ExitPlanMode for the user's approval.";

impl Tool for EnterPlanModeTool {
    type Input = EnterPlanModeInput;

    fn name(&self) -> &'static str {
        names::ENTER_PLAN_MODE
    }

    fn description(&self) -> String {
        "Ask the user to switch into plan mode, for tasks that need careful exploration and a design the user \
         should approve before any file is changed (several files, unclear approach, architectural choices). In \
         plan mode only read-only work runs; present the plan with ExitPlanMode when it is ready."
            .into()
    }

    fn render_hints(&self, _input: &EnterPlanModeInput, _ctx: &ToolContext) -> RenderHints {
        RenderHints {
            kind: ToolKind::Other,
            title: "Enter plan mode".into(),
            collapsible: false,
        }
    }

    async fn validate_input(
        &self,
        _input: &EnterPlanModeInput,
        ctx: &ToolContext,
    ) -> Result<(), String> {
        if ctx.mode == PermissionMode::Plan {
            return Err(
                "Already in plan mode. Present the plan with ExitPlanMode when it is ready.".into(),
            );
        }
        Ok(())
    }

    async fn call(
        &self,
        _input: &EnterPlanModeInput,
        _ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        Ok(ToolOutput::text(ENTERED)
            .with_context_change(ContextChange::SetMode(PermissionMode::Plan)))
    }
}

impl Tool for ExitPlanModeTool {
    type Input = ExitPlanModeInput;

    fn name(&self) -> &'static str {
        names::EXIT_PLAN_MODE
    }

    fn description(&self) -> String {
        "In plan mode, present your implementation plan (markdown) to the user for approval. If they approve, plan \
         mode ends and you can start implementing; if they want changes, you stay in plan mode and get their \
         feedback. Use it only to present a plan for implementation work, not for research questions."
            .into()
    }

    fn asks_person_itself(&self) -> bool {
        true
    }

    fn render_hints(&self, _input: &ExitPlanModeInput, _ctx: &ToolContext) -> RenderHints {
        RenderHints {
            kind: ToolKind::Other,
            title: "Present the plan".into(),
            collapsible: false,
        }
    }

    async fn validate_input(
        &self,
        input: &ExitPlanModeInput,
        ctx: &ToolContext,
    ) -> Result<(), String> {
        if ctx.mode != PermissionMode::Plan {
            return Err(
                "You are not in plan mode: there is no plan to approve. Go ahead with the task."
                    .into(),
            );
        }
        if input.plan.trim().is_empty() {
            return Err("The plan is empty: write the plan in markdown in `plan`.".into());
        }
        Ok(())
    }

    async fn call(
        &self,
        input: &ExitPlanModeInput,
        ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let Some(person) = &ctx.person else {
            return Err(ToolError::to_model(
                "Nobody can approve a plan here. Stay in plan mode.",
            ));
        };
        let choice = match person
            .review_plan(&ctx.tool_use_id, &input.plan, &ctx.cancel)
            .await
        {
            Ok(choice) => choice,
            Err(PersonError::Cancelled) => return Err(ToolError::Cancelled),
            Err(PersonError::NoAnswer(why)) => {
                return Err(ToolError::to_model(format!(
                    "The plan could not be shown for approval: {why}. Nobody can approve it, so plan mode goes \
                     on; do not start changing files."
                )));
            }
        };
        match choice {
            PlanChoice::Approve { mode } => {
                self.approved.set(&input.plan);
                let mode = mode.filter(|m| *m != PermissionMode::Plan);
                Ok(ToolOutput::text(format!(
                    "The user approved your plan. Plan mode has ended: you can now start implementing it. Start \
                     with updating your to-do list if applicable.\n\n## Approved plan:\n{}",
                    input.plan
                ))
                .with_context_change(ContextChange::LeavePlanMode(mode)))
            }
            PlanChoice::KeepPlanning { feedback } => {
                let feedback = feedback.trim();
                let said = if feedback.is_empty() {
                    "They gave no feedback; ask them what to change if it is unclear.".to_string()
                } else {
                    format!("Their feedback:\n{feedback}")
                };
                Err(ToolError::to_model(format!(
                    "The user did not approve the plan and wants to keep planning. {said}\n\nStay in plan mode: \
                     revise the plan and present it again with ExitPlanMode."
                )))
            }
        }
    }
}

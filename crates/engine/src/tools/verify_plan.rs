//! VerifyPlanExecution (offered with `CLAUDE_CODE_VERIFY_PLAN`): once the person approved a plan and the agent says
//! it carried it out, a `verification` sub-agent checks the work against the plan — reading the changes and running
//! the project's checks, never editing — and its verdict is the result. `Agent(verification)` rules decide it as they
//! decide that sub-agent.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use tandem_protocol::{RenderHints, ToolKind};

use super::agent::definition::VERIFICATION;
use super::plan_mode::ApprovedPlan;
use crate::tool::names;
use crate::tool::{
    PermissionSubject, SubAgentError, SubAgentRequest, Tool, ToolContext, ToolError, ToolOutput,
};

/// What was done.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VerifyPlanInput {
    /// What you did to carry out the plan: the steps done, the files changed, anything left out and why.
    pub summary: String,
}

/// Checks the work against the approved plan.
#[derive(Debug, Clone)]
pub struct VerifyPlanExecutionTool {
    approved: Arc<ApprovedPlan>,
}

impl VerifyPlanExecutionTool {
    /// The tool reading the plan ExitPlanMode keeps in `approved`.
    pub fn new(approved: Arc<ApprovedPlan>) -> Self {
        Self { approved }
    }
}

/// The verification agent's task.
fn task(plan: &str, summary: &str) -> String {
    format!(
        "The user approved the plan below, and the agent that carried it out says this about its work. Check \
         that every step of the plan was done and works: read the changes, run the project's tests and other \
         checks, and try what the plan promised. Do not fix anything.\n\n<plan>\n{plan}\n</plan>\n\n\
         <summary>\n{summary}\n</summary>\n\nAnswer with PASS, FAIL or PARTIAL first, then for each step of the \
         plan whether it was done, with your evidence."
    )
}

impl Tool for VerifyPlanExecutionTool {
    type Input = VerifyPlanInput;

    fn name(&self) -> &'static str {
        names::VERIFY_PLAN_EXECUTION
    }

    fn description(&self) -> String {
        "Once you have carried out a plan the user approved, call this before telling the user you are done: a \
         verification agent checks your work against the plan (reads the changes, runs the project's checks) and \
         answers PASS, FAIL or PARTIAL with its evidence. Fix what it finds and call it again."
            .into()
    }

    fn render_hints(&self, _input: &VerifyPlanInput, _ctx: &ToolContext) -> RenderHints {
        RenderHints {
            kind: ToolKind::Other,
            title: "Verify the plan was carried out".into(),
            collapsible: false,
        }
    }

    fn permission_subject(
        &self,
        _input: &VerifyPlanInput,
        _ctx: &ToolContext,
    ) -> PermissionSubject {
        PermissionSubject::Agent {
            subagent_type: Some(VERIFICATION.to_string()),
        }
    }

    async fn validate_input(
        &self,
        input: &VerifyPlanInput,
        _ctx: &ToolContext,
    ) -> Result<(), String> {
        if self.approved.get().is_none() {
            return Err(
                "No plan has been approved in this session, so there is nothing to verify against."
                    .into(),
            );
        }
        if input.summary.trim().is_empty() {
            return Err("Say in `summary` what you did to carry out the plan.".into());
        }
        Ok(())
    }

    async fn call(
        &self,
        input: &VerifyPlanInput,
        ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let plan = self
            .approved
            .get()
            .ok_or_else(|| ToolError::to_model("No plan has been approved in this session."))?;
        let Some(runner) = ctx.sub_agents.clone() else {
            return Err(ToolError::to_model("Sub-agents are not available here."));
        };
        let request = SubAgentRequest {
            agent_type: VERIFICATION.to_string(),
            description: "Verify the plan".into(),
            prompt: task(&plan, &input.summary),
            model: None,
            parent_tool_use_id: ctx.tool_use_id.clone(),
            cancel: ctx.cancel.clone(),
            worktree: false,
            branch: None,
            mode: None,
            cwd: None,
            fork: None,
            remote: false,
        };
        match runner.run(request).await {
            Ok(report) => Ok(ToolOutput::text(format!(
                "The verification agent's report:\n\n{}",
                report.final_text
            ))),
            Err(SubAgentError::Cancelled) => Err(ToolError::Cancelled),
            Err(e) => Err(ToolError::to_model(e.to_string())),
        }
    }
}

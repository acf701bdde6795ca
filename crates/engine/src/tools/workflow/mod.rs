//! Workflow (behind `WORKFLOW_SCRIPTS`; docs/workflows.md): runs a workflow script of the project — named steps,
//! each a shell command or a tool call, in order. Each step runs through the whole tool-call pipeline as its own
//! call ([`crate::tool::InnerCalls`]), so it is checked, hooked, checkpointed and shown like a direct one; the
//! Workflow call itself is judged as the bare tool (deny and ask rules may name one: `Workflow(workflow:NAME)`).

mod file;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::Deserialize;
use tandem_protocol::{RenderHints, ToolKind};

pub use file::{PlannedStep, WORKFLOWS_DIR, Workflow, list, load, parse, valid_name};

use crate::tool::{Tool, ToolContext, ToolError, ToolOutput, names};

/// A step's result is cut to this many characters in the workflow's result.
pub const MAX_STEP_CHARS: usize = 4_000;

/// Which workflow to run, with its inputs.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WorkflowInput {
    /// The workflow's name: its file's name in `.claude/workflows/` without the ending.
    pub workflow: String,
    /// Values of the workflow's inputs, by name (those with a default may be left out).
    #[serde(default)]
    pub inputs: BTreeMap<String, String>,
}

/// The Workflow tool: the workflows of a project (and of the person's home folder).
#[derive(Debug, Clone)]
pub struct WorkflowTool {
    project: PathBuf,
    home: Option<PathBuf>,
    /// The workflows as the session began, for the description: read once, so that the tool list sent with every
    /// request neither reads the folder again nor changes (which would spoil the prompt cache). A call reads the
    /// files as they are then.
    catalogue: String,
}

impl WorkflowTool {
    /// Workflows of `project`, then of `home` (`.claude/workflows/` in each; the project's win).
    pub fn new(project: PathBuf, home: Option<PathBuf>) -> Self {
        let catalogue = catalogue(&project, home.as_deref());
        Self {
            project,
            home,
            catalogue,
        }
    }

    /// The workflow `name` as its file says it, ready to plan. `Err` tells the model what is wrong (an unknown
    /// name lists those there are).
    fn find(&self, name: &str) -> Result<Workflow, String> {
        let found = list(&self.project, self.home.as_deref());
        match found.iter().find(|f| f.name == name) {
            Some(f) => load(&f.path),
            None if found.is_empty() => Err(format!(
                "there is no workflow `{name}`: no workflow files are in {WORKFLOWS_DIR}/"
            )),
            None => Err(format!(
                "there is no workflow `{name}`; the workflows are: {}",
                found
                    .iter()
                    .map(|f| f.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }
}

/// One line per workflow of `project` and `home` for the description: its name, inputs and description.
fn catalogue(project: &Path, home: Option<&Path>) -> String {
    let lines: Vec<String> = list(project, home)
        .into_iter()
        .map(|f| match load(&f.path) {
            Ok(w) => {
                let inputs = if w.inputs.is_empty() {
                    String::new()
                } else {
                    format!(" (inputs: {})", w.input_names())
                };
                format!("- {}{inputs}: {}", f.name, w.description.trim())
            }
            Err(why) => format!("- {} (cannot be run: {why})", f.name),
        })
        .collect();
    if lines.is_empty() {
        format!("No workflows are defined yet ({WORKFLOWS_DIR}/ is empty).")
    } else {
        format!("Workflows:\n{}", lines.join("\n"))
    }
}

impl Tool for WorkflowTool {
    type Input = WorkflowInput;

    fn name(&self) -> &'static str {
        names::WORKFLOW
    }

    fn description(&self) -> String {
        format!(
            "Runs one of the project's workflow scripts ({WORKFLOWS_DIR}/NAME.yaml): named steps, each a shell \
             command or a tool call, run in order. Each step is checked and run as if you had made the call \
             yourself (the person may be asked); the workflow stops at the first step that fails unless that step \
             says continue_on_error. The result lists each step with its outcome and output. Prefer a workflow \
             over repeating its steps by hand when one fits the task.\n\n{}",
            self.catalogue
        )
    }

    fn render_hints(&self, input: &WorkflowInput, _ctx: &ToolContext) -> RenderHints {
        RenderHints {
            kind: ToolKind::Other,
            title: format!("Workflow {}", input.workflow),
            collapsible: true,
        }
    }

    async fn validate_input(
        &self,
        input: &WorkflowInput,
        _ctx: &ToolContext,
    ) -> Result<(), String> {
        if !valid_name(&input.workflow) {
            return Err(format!(
                "`{}` is not a workflow name (letters, digits, `-`, `_` and `.`)",
                input.workflow
            ));
        }
        self.find(&input.workflow)?.plan(&input.inputs).map(|_| ())
    }

    async fn call(
        &self,
        input: &WorkflowInput,
        ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let Some(inner) = ctx.inner_calls.clone() else {
            return Err(ToolError::to_model(
                "Workflow is not available here: its steps need a session to run in",
            ));
        };
        // Read again: the file may have changed since the call was checked.
        let steps = self
            .find(&input.workflow)
            .and_then(|w| w.plan(&input.inputs))
            .map_err(ToolError::to_model)?;
        let mut report = Vec::with_capacity(steps.len());
        let mut stopped_at = None;
        let mut failed = 0;
        for (n, step) in steps.iter().enumerate() {
            ctx.progress
                .report(format!("step {} of {}: {}", n + 1, steps.len(), step.name));
            let result = inner
                .call(
                    step.tool.clone(),
                    format!("{}/{}", ctx.tool_use_id, n + 1),
                    step.input.clone(),
                    ctx.cancel.clone(),
                )
                .await;
            if ctx.cancel.is_cancelled() {
                return Err(ToolError::Cancelled);
            }
            let outcome = if result.ok { "ok" } else { "failed" };
            report.push(format!(
                "{}. {} ({}): {outcome}\n{}",
                n + 1,
                step.name,
                step.tool,
                cut(result.text.trim_end())
            ));
            if !result.ok {
                failed += 1;
                if !step.continue_on_error {
                    stopped_at = Some(n);
                    break;
                }
            }
        }
        let summary = match stopped_at {
            Some(n) => {
                for (k, step) in steps.iter().enumerate().skip(n + 1) {
                    report.push(format!("{}. {} ({}): not run", k + 1, step.name, step.tool));
                }
                format!(
                    "Workflow {} stopped at step {} ({}), which failed.",
                    input.workflow,
                    n + 1,
                    steps[n].name
                )
            }
            None if failed > 0 => format!(
                "Workflow {} ran all {} steps; {failed} failed and were passed over.",
                input.workflow,
                steps.len()
            ),
            None => format!("Workflow {} ran all {} steps.", input.workflow, steps.len()),
        };
        let text = format!("{summary}\n\n{}", report.join("\n\n"));
        match stopped_at {
            Some(_) => Err(ToolError::to_model(text)),
            None => Ok(ToolOutput::text(text)),
        }
    }
}

/// `text` cut to [`MAX_STEP_CHARS`] characters (its end kept: a failing command says why last).
fn cut(text: &str) -> String {
    let count = text.chars().count();
    if count <= MAX_STEP_CHARS {
        return text.to_string();
    }
    let tail: String = text.chars().skip(count - MAX_STEP_CHARS).collect();
    format!("[{} characters cut]\n{tail}", count - MAX_STEP_CHARS)
}

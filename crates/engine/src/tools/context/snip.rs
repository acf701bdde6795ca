//! Snip: the model cuts stale tool results from its own history. The results of the calls it names are replaced by a
//! short marker (`[snipped by the model: …]`) in every later request; the calls and their results stay paired. The
//! stored history keeps the cut (a reopened session goes on without the content), the stored events keep everything
//! (the person still reads it all). Behind `HISTORY_SNIP` (docs/context-tools.md).

use schemars::JsonSchema;
use serde::Deserialize;
use tandem_protocol::{RenderHints, ToolKind};

use super::NO_LEDGER;
use crate::tool::{PermissionSubject, Tool, ToolContext, ToolError, ToolOutput, names};

/// The longest note kept in a marker, in characters.
const MAX_NOTE_CHARS: usize = 300;

/// Cuts tool results from the history.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SnipInput {
    /// The tool_use ids of the calls whose results are no longer needed. Calls of your current message cannot be
    /// snipped.
    pub tool_use_ids: Vec<String>,
    /// A short note kept in place of the results: what they held that still matters, or why they were cut.
    #[serde(default)]
    pub note: String,
}

/// The Snip tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct SnipTool;

impl Tool for SnipTool {
    type Input = SnipInput;

    fn name(&self) -> &'static str {
        names::SNIP
    }

    fn description(&self) -> String {
        "Remove stale tool results from your own conversation history to free context: the results of the calls \
         you name (by tool_use id) are replaced by a short marker, \"[snipped by the model: ...]\", with your note, \
         in every later request. The calls themselves stay. Snip only what you no longer need (a file you read \
         and have since changed, a long log already summarised); put anything you still need into the note. \
         Results of calls in your current message cannot be snipped."
            .into()
    }

    fn is_concurrency_safe(&self, _input: &SnipInput) -> bool {
        true
    }

    fn render_hints(&self, input: &SnipInput, _ctx: &ToolContext) -> RenderHints {
        let n = input.tool_use_ids.len();
        RenderHints {
            kind: ToolKind::Other,
            title: format!(
                "Snip {n} tool result{} from the history",
                if n == 1 { "" } else { "s" }
            ),
            collapsible: false,
        }
    }

    /// The cut touches only this session's own conversation (which the model already holds), no file and nothing
    /// outside: like the checklist tools it needs no permission; deny rules naming Snip still apply.
    fn permission_subject(&self, _input: &SnipInput, _ctx: &ToolContext) -> PermissionSubject {
        PermissionSubject::SessionOwned
    }

    async fn validate_input(&self, input: &SnipInput, _ctx: &ToolContext) -> Result<(), String> {
        if input.note.chars().count() > MAX_NOTE_CHARS {
            return Err(format!(
                "the note is longer than {MAX_NOTE_CHARS} characters; keep it short"
            ));
        }
        Ok(())
    }

    async fn call(&self, input: &SnipInput, ctx: &ToolContext) -> Result<ToolOutput, ToolError> {
        let ledger = ctx
            .conversation
            .as_ref()
            .ok_or_else(|| ToolError::to_model(NO_LEDGER))?;
        if input.tool_use_ids.iter().any(|id| id == &ctx.tool_use_id) {
            return Err(ToolError::to_model(format!(
                "`{}` is this Snip call itself, still pending: only the results of earlier calls can be snipped",
                ctx.tool_use_id
            )));
        }
        let planned = ledger
            .snip(&input.tool_use_ids, &input.note)
            .map_err(|e| ToolError::to_model(e.to_string()))?;
        let cut: Vec<String> = planned
            .iter()
            .filter(|p| !p.already)
            .map(|p| {
                format!(
                    "{} ({}, about {} tokens)",
                    p.tool_use_id, p.tool_name, p.tokens
                )
            })
            .collect();
        let already: Vec<&str> = planned
            .iter()
            .filter(|p| p.already)
            .map(|p| p.tool_use_id.as_str())
            .collect();
        let freed: u64 = planned
            .iter()
            .filter(|p| !p.already)
            .map(|p| p.tokens)
            .sum();
        let mut text = if cut.is_empty() {
            "Nothing to snip.".to_string()
        } else {
            format!(
                "Snipped from the next request on: {}; about {freed} tokens freed.",
                cut.join(", ")
            )
        };
        if !already.is_empty() {
            text.push_str(&format!(" Already snipped: {}.", already.join(", ")));
        }
        Ok(ToolOutput::text(text))
    }
}

//! Snip: the model cuts stale parts of its own history. The results of the calls it names are replaced by a short
//! marker (`[snipped by the model: …]`) in every later request, the calls and their results staying paired; or a
//! range of whole steps — from the message that made one call through the result of another — goes, leaving one
//! marker. The stored history keeps the cut (a reopened session goes on without the content), the stored events
//! keep everything (the person still reads it all). Behind `HISTORY_SNIP` (docs/context-tools.md).

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
    #[serde(default)]
    pub tool_use_ids: Vec<String>,
    /// Instead of single results: a range of whole steps to remove — your messages and the results between them,
    /// from the message that made the call `from_tool_use_id` through the result of `through_tool_use_id` (the
    /// same id for one step). It may not hold a prompt of the user.
    #[serde(default)]
    pub range: Option<SnipRange>,
    /// A short note kept in place of the results: what they held that still matters, or why they were cut.
    #[serde(default)]
    pub note: String,
}

/// A range of whole steps to cut.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SnipRange {
    pub from_tool_use_id: String,
    pub through_tool_use_id: String,
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
        "Remove stale parts of your own conversation history to free context. Either name calls (tool_use_ids): \
         their results are replaced by a short marker, \"[snipped by the model: ...]\", with your note, in every \
         later request, and the calls themselves stay; or give a range (from_tool_use_id, through_tool_use_id): \
         your messages and the tool results from the message that made the first call through the result of the \
         second are removed whole and one marker with your note takes their place (a range may not hold a prompt \
         of the user). Snip only what you no longer need (a file you read and have since changed, a dead end \
         already summarised); put anything you still need into the note. Calls of your current message cannot be \
         snipped."
            .into()
    }

    fn is_concurrency_safe(&self, _input: &SnipInput) -> bool {
        true
    }

    fn render_hints(&self, input: &SnipInput, _ctx: &ToolContext) -> RenderHints {
        if let Some(range) = &input.range {
            return RenderHints {
                kind: ToolKind::Other,
                title: format!(
                    "Snip the steps {} … {} from the history",
                    range.from_tool_use_id, range.through_tool_use_id
                ),
                collapsible: false,
            };
        }
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
        match (&input.range, input.tool_use_ids.is_empty()) {
            (Some(_), false) => {
                return Err("give tool_use_ids or a range, not both".into());
            }
            (None, true) => return Err("name at least one tool_use id, or give a range".into()),
            _ => {}
        }
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
        if let Some(range) = &input.range {
            let planned = ledger
                .snip_range(
                    &range.from_tool_use_id,
                    &range.through_tool_use_id,
                    &input.note,
                )
                .map_err(|e| ToolError::to_model(e.to_string()))?;
            return Ok(ToolOutput::text(format!(
                "Snipped from the next request on: {} messages with {} tool calls ({} through {}); about {} tokens \
                 freed.",
                planned.messages,
                planned.calls,
                planned.from_tool_use_id,
                planned.through_tool_use_id,
                planned.tokens
            )));
        }
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

//! CtxInspect: tells the model what fills its context window now — the system prompt, the tool definitions and each
//! message (tool calls and results named by id and tool), largest first, with the totals per tool and against the
//! window. Read-only; behind `CONTEXT_COLLAPSE` (docs/context-tools.md).

use schemars::JsonSchema;
use serde::Deserialize;
use tandem_protocol::{RenderHints, ToolKind};

use super::NO_LEDGER;
use super::breakdown::{ContextBreakdown, MessageSize, Part};
use crate::model::{CHARS_PER_TOKEN, Role};
use crate::tool::{PermissionSubject, Tool, ToolContext, ToolError, ToolOutput, names};

/// How many messages are listed when the input does not say.
const DEFAULT_LIMIT: usize = 20;
/// How many tool definitions are named.
const TOOLS_NAMED: usize = 10;

/// Shows what fills the context window.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CtxInspectInput {
    /// How many messages to list, largest first (default 20).
    #[serde(default)]
    pub limit: Option<usize>,
}

/// The CtxInspect tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct CtxInspectTool;

impl Tool for CtxInspectTool {
    type Input = CtxInspectInput;

    fn name(&self) -> &'static str {
        names::CTX_INSPECT
    }

    fn description(&self) -> String {
        "Show what fills your context window now, in tokens: the system prompt, the tool definitions and each \
         message of the conversation (by index and role, tool calls and results named by tool_use id and tool), \
         largest first, with each tool's share and the total against the context window. Use it to find large, \
         stale tool results before the conversation fills up."
            .into()
    }

    fn is_concurrency_safe(&self, _input: &CtxInspectInput) -> bool {
        true
    }

    fn is_read_only(&self, _input: &CtxInspectInput) -> bool {
        true
    }

    fn render_hints(&self, _input: &CtxInspectInput, _ctx: &ToolContext) -> RenderHints {
        RenderHints {
            kind: ToolKind::Other,
            title: "Inspect the context".into(),
            collapsible: true,
        }
    }

    fn permission_subject(
        &self,
        _input: &CtxInspectInput,
        _ctx: &ToolContext,
    ) -> PermissionSubject {
        PermissionSubject::Tool
    }

    async fn call(
        &self,
        input: &CtxInspectInput,
        ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let ledger = ctx
            .conversation
            .as_ref()
            .ok_or_else(|| ToolError::to_model(NO_LEDGER))?;
        let sent = ledger
            .sent()
            .ok_or_else(|| ToolError::to_model("nothing has been sent to the model yet"))?;
        let breakdown = ContextBreakdown::of(&sent, ledger.counted());
        let pending = ledger.pending_snips();
        Ok(ToolOutput::text(render(
            &breakdown,
            input.limit.unwrap_or(DEFAULT_LIMIT),
            &pending,
        )))
    }
}

/// The report for the model.
pub fn render(b: &ContextBreakdown, limit: usize, pending_snips: &[String]) -> String {
    let window = b.context_window.max(1);
    let percent = |tokens: u64| tokens as f64 * 100.0 / window as f64;
    let estimated = b.estimated_total();
    let mut out = format!(
        "Context of the request that led to this call (this call and its result are not in it yet).\n\
         Context window: {} tokens.\n\
         Estimated total: {estimated} tokens ({:.1}% of the window). Every figure below is an estimate: about {CHARS_PER_TOKEN} characters of the JSON sent per token.\n",
        b.context_window,
        percent(estimated),
    );
    match (b.counted, b.counted_total()) {
        (Some(counted), Some(total)) => out.push_str(&format!(
            "Model's count (usage of the last response): {} input tokens for the request with messages #0-#{}; with the estimate of the messages since, {total} tokens ({:.1}% of the window).\n",
            counted.input_tokens,
            counted.messages.saturating_sub(1),
            percent(total),
        )),
        _ => out.push_str("Model's count: none yet (no response so far).\n"),
    }
    out.push_str(&format!(
        "\nBy part:\n  system prompt: {}\n  tool definitions ({}): {}\n  messages ({}): {}\n",
        b.system_tokens,
        b.tools.len(),
        b.tool_tokens(),
        b.messages.len(),
        b.message_tokens(),
    ));
    let mut largest: Vec<&MessageSize> = b.messages.iter().collect();
    largest.sort_by(|a, c| c.tokens.cmp(&a.tokens).then(a.index.cmp(&c.index)));
    out.push_str(&format!(
        "\nMessages, largest first ({} of {}):\n",
        limit.min(largest.len()),
        largest.len()
    ));
    for message in largest.iter().take(limit) {
        out.push_str(&format!("  {}\n", message_line(message)));
    }
    let shares = b.by_tool();
    if !shares.is_empty() {
        out.push_str("\nBy tool (calls; tokens of their inputs and results):\n");
        for share in shares {
            out.push_str(&format!(
                "  {}: {} call{}, {}\n",
                share.tool,
                share.calls,
                if share.calls == 1 { "" } else { "s" },
                share.tokens
            ));
        }
    }
    let mut tools: Vec<&(String, u64)> = b.tools.iter().collect();
    tools.sort_by(|a, c| c.1.cmp(&a.1).then(a.0.cmp(&c.0)));
    if !tools.is_empty() {
        let named: Vec<String> = tools
            .iter()
            .take(TOOLS_NAMED)
            .map(|(name, tokens)| format!("{name} {tokens}"))
            .collect();
        out.push_str(&format!(
            "\nLargest tool definitions: {}\n",
            named.join(", ")
        ));
    }
    if !pending_snips.is_empty() {
        out.push_str(&format!(
            "\nSnipped from the next request on (not yet applied above): {}\n",
            pending_snips.join(", ")
        ));
    }
    out
}

fn message_line(m: &MessageSize) -> String {
    let role = match m.role {
        Role::User => "user",
        Role::Assistant => "assistant",
    };
    let parts: Vec<String> = m
        .parts
        .iter()
        .map(|(part, tokens)| match part {
            Part::Text => format!("text {tokens}"),
            Part::Thinking => format!("thinking {tokens}"),
            Part::Image => format!("image {tokens}"),
            Part::ServerTool => format!("server tool {tokens}"),
            Part::ToolUse { id, tool } => format!("tool_use {id} ({tool}) {tokens}"),
            Part::ToolResult { id, tool, snipped } => format!(
                "tool_result {id} ({tool}){} {tokens}",
                if *snipped { " [snipped]" } else { "" }
            ),
        })
        .collect();
    format!("#{} {role} {}: {}", m.index, m.tokens, parts.join(", "))
}

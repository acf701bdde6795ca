//! Synthetic deferred tools (as an MCP server would bring): many tools with realistic schemas, for ToolSearch
//! tests and the token benchmark. A call answers with the tool's name and its input.

use std::sync::Arc;

use futures::future::BoxFuture;
use serde_json::{Value, json};
use tandem_protocol::{FileDiff, RenderHints, ToolKind};

use crate::tool::{
    DynTool, InterruptBehavior, PermissionSubject, PreparedCall, ToolContext, ToolError, ToolOutput,
};

/// A deferred tool with a generated name, description and schema.
#[derive(Debug, Clone)]
pub struct SyntheticTool {
    name: String,
    description: String,
    hint: Option<String>,
    schema: Value,
    always_load: bool,
}

const AREAS: &[(&str, &str)] = &[
    ("github", "GitHub issues, pull requests and repositories"),
    ("jira", "Jira tickets, sprints and boards"),
    ("slack", "Slack channels, messages and users"),
    ("postgres", "PostgreSQL tables, queries and schemas"),
    ("sentry", "Sentry errors, releases and alerts"),
    ("figma", "Figma files, frames and comments"),
    ("notion", "Notion pages, databases and blocks"),
    ("linear", "Linear issues, cycles and projects"),
];
const VERBS: &[&str] = &[
    "list",
    "get",
    "create",
    "update",
    "delete",
    "search",
    "comment",
    "assign",
    "close",
    "archive",
    "export",
    "import",
    "merge",
    "label",
    "watch",
    "sync",
    "link",
    "move",
    "copy",
    "summarize",
    "count",
    "lock",
    "unlock",
    "pin",
    "review",
];

impl SyntheticTool {
    /// Tool `i` of a large server set: `mcp__<area>__<verb>_item_<i>`.
    pub fn numbered(i: usize) -> Self {
        let (area, what) = AREAS[i % AREAS.len()];
        let verb = VERBS[(i / AREAS.len()) % VERBS.len()];
        let name = format!("mcp__{area}__{verb}_item_{i}");
        let description = format!(
            "{verb} one item in {what}. Use it when the user asks to {verb} something in {area}; it returns the \
             item as JSON with its id, title, state, owner, labels, created and updated times, and a link. Fails \
             when the item does not exist or the token lacks the scope."
        );
        let schema = json!({
            "type": "object",
            "properties": {
                "id": {"type": "string", "description": format!("The {area} item's id")},
                "workspace": {"type": "string", "description": "The workspace or organisation"},
                "fields": {"type": "array", "items": {"type": "string"}, "description": "Fields to return"},
                "limit": {"type": "integer", "minimum": 1, "maximum": 100, "description": "Most results"},
                "cursor": {"type": "string", "description": "Where the previous page ended"},
                "dry_run": {"type": "boolean", "description": "Report what would change without changing it"}
            },
            "required": ["id"]
        });
        Self {
            name,
            description,
            hint: Some(format!("{verb} {area} items")),
            schema,
            always_load: false,
        }
    }

    /// The same tool, never deferred.
    pub fn always_loaded(mut self) -> Self {
        self.always_load = true;
        self
    }
}

/// `n` synthetic deferred tools.
pub fn synthetic_tools(n: usize) -> Vec<Arc<dyn DynTool>> {
    (0..n)
        .map(|i| Arc::new(SyntheticTool::numbered(i)) as Arc<dyn DynTool>)
        .collect()
}

impl DynTool for SyntheticTool {
    fn name(&self) -> &str {
        &self.name
    }
    fn aliases(&self) -> &[&str] {
        &[]
    }
    fn description(&self) -> String {
        self.description.clone()
    }
    fn input_schema(&self) -> &Value {
        &self.schema
    }
    fn max_result_size_chars(&self) -> usize {
        100_000
    }
    fn is_enabled(&self) -> bool {
        true
    }
    fn interrupt_behavior(&self) -> InterruptBehavior {
        InterruptBehavior::Cancel
    }
    fn should_defer(&self) -> bool {
        true
    }
    fn always_load(&self) -> bool {
        self.always_load
    }
    fn search_hint(&self) -> Option<String> {
        self.hint.clone()
    }
    fn prepare(&self, input: &Value) -> Result<Box<dyn PreparedCall>, String> {
        if input.get("id").and_then(Value::as_str).is_none() {
            return Err(format!("InputValidationError: {} needs an `id`", self.name));
        }
        Ok(Box::new(SyntheticCall {
            name: self.name.clone(),
            input: input.clone(),
        }))
    }
    fn backfill_observable_input(&self, _input: &mut Value, _ctx: &ToolContext) {}
}

struct SyntheticCall {
    name: String,
    input: Value,
}

impl PreparedCall for SyntheticCall {
    fn is_concurrency_safe(&self) -> bool {
        true
    }
    fn is_read_only(&self) -> bool {
        true
    }
    fn is_destructive(&self) -> bool {
        false
    }
    fn render_hints(&self, _ctx: &ToolContext) -> RenderHints {
        RenderHints {
            kind: ToolKind::Other,
            title: self.name.clone(),
            collapsible: false,
        }
    }
    fn permission_subject(&self, _ctx: &ToolContext) -> PermissionSubject {
        PermissionSubject::Tool
    }
    fn approval_preview(&self, _ctx: &ToolContext) -> Option<FileDiff> {
        None
    }
    fn validate<'a>(&'a self, _ctx: &'a ToolContext) -> BoxFuture<'a, Result<(), String>> {
        Box::pin(async { Ok(()) })
    }
    fn call<'a>(&'a self, _ctx: &'a ToolContext) -> BoxFuture<'a, Result<ToolOutput, ToolError>> {
        Box::pin(async move {
            Ok(ToolOutput::text(format!(
                "{} ran with {}",
                self.name, self.input
            )))
        })
    }
}

//! ToolSearch: loads the definitions of deferred tools (sent to the model as names only, see
//! [`crate::tool::deferred`]). `select:a,b` loads tools by name; other queries are keywords matched against each
//! deferred tool's name (its `mcp__server__tool` parts too), search hint and description, `+word` required. The
//! matched definitions are returned and sent with every later request.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use tandem_protocol::{RenderHints, ToolDetail, ToolKind};

use crate::tool::{
    DeferredTools, DynTool, PermissionSubject, Tool, ToolContext, ToolError, ToolOutput, names,
};

/// The input of ToolSearch.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ToolSearchInput {
    /// `select:Name1,Name2` to load tools by name, or keywords to search for (`+word` must match).
    pub query: String,
    /// Most tools to load (default 5).
    #[serde(default)]
    pub max_results: Option<usize>,
}

/// The ToolSearch tool of a session.
#[derive(Debug)]
pub struct ToolSearchTool {
    deferred: Arc<DeferredTools>,
}

impl ToolSearchTool {
    pub fn new(deferred: Arc<DeferredTools>) -> Self {
        Self { deferred }
    }
}

/// The score of `tool` for one lower-case keyword (0: no match).
fn term_score(tool: &dyn DynTool, term: &str) -> u32 {
    let name = tool.name().to_ascii_lowercase();
    let parts: Vec<&str> = name
        .split(['_', '-', '.'])
        .filter(|p| !p.is_empty())
        .collect();
    let mut score = if name == term {
        10
    } else if parts.contains(&term) {
        5
    } else if name.contains(term) {
        3
    } else {
        0
    };
    if tool
        .search_hint()
        .is_some_and(|h| h.to_ascii_lowercase().contains(term))
    {
        score += 2;
    }
    if tool.description().to_ascii_lowercase().contains(term) {
        score += 1;
    }
    score
}

/// The deferred tools `query` finds, best first, at most `max`.
pub fn search(tools: &[Arc<dyn DynTool>], query: &str, max: usize) -> Vec<Arc<dyn DynTool>> {
    if let Some(list) = query.trim().strip_prefix("select:") {
        return list
            .split(',')
            .map(str::trim)
            .filter_map(|wanted| {
                tools
                    .iter()
                    .find(|t| t.name() == wanted)
                    .or_else(|| tools.iter().find(|t| t.name().eq_ignore_ascii_case(wanted)))
                    .cloned()
            })
            .collect();
    }
    let terms: Vec<(bool, String)> = query
        .split_whitespace()
        .map(|t| match t.strip_prefix('+') {
            Some(required) => (true, required.to_ascii_lowercase()),
            None => (false, t.to_ascii_lowercase()),
        })
        .filter(|(_, t)| !t.is_empty())
        .collect();
    let mut scored: Vec<(u32, usize, &Arc<dyn DynTool>)> = tools
        .iter()
        .enumerate()
        .filter_map(|(i, tool)| {
            let mut total = 0;
            for (required, term) in &terms {
                let score = term_score(tool.as_ref(), term);
                if *required && score == 0 {
                    return None;
                }
                total += score;
            }
            (total > 0).then_some((total, i, tool))
        })
        .collect();
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    scored
        .into_iter()
        .take(max)
        .map(|(_, _, t)| t.clone())
        .collect()
}

impl Tool for ToolSearchTool {
    type Input = ToolSearchInput;

    fn name(&self) -> &'static str {
        names::TOOL_SEARCH
    }

    fn description(&self) -> String {
        "Loads the definitions of deferred tools so that you can call them. The deferred tools are listed by name \
         below; their parameters are unknown until loaded. Use `select:Name1,Name2` to load tools by name, or \
         keywords to search names and descriptions (`+word` must match). Loaded tools can be called from your next \
         message on."
            .into()
    }

    fn is_concurrency_safe(&self, _input: &Self::Input) -> bool {
        true
    }

    fn is_read_only(&self, _input: &Self::Input) -> bool {
        true
    }

    fn render_hints(&self, input: &Self::Input, _ctx: &ToolContext) -> RenderHints {
        RenderHints {
            kind: ToolKind::Search,
            title: format!("Search tools: {}", input.query),
            collapsible: true,
        }
    }

    fn permission_subject(&self, _input: &Self::Input, _ctx: &ToolContext) -> PermissionSubject {
        PermissionSubject::SessionOwned
    }

    async fn call(&self, input: &Self::Input, _ctx: &ToolContext) -> Result<ToolOutput, ToolError> {
        let tools = self.deferred.tools();
        let found = search(&tools, &input.query, input.max_results.unwrap_or(5).max(1));
        let loaded: Vec<String> = found.iter().map(|t| t.name().to_string()).collect();
        self.deferred.load(&loaded);
        let text = if found.is_empty() {
            format!(
                "No deferred tool matches \"{}\". Try other keywords, or select:Name with a name from the list.",
                input.query
            )
        } else {
            let definitions: Vec<String> = found
                .iter()
                .map(|t| {
                    let definition = json!({"name": t.name(), "description": t.description(),
                                            "parameters": t.input_schema()});
                    format!("<function>{definition}</function>")
                })
                .collect();
            format!(
                "<functions>\n{}\n</functions>\nThese tools are loaded: call them directly.",
                definitions.join("\n")
            )
        };
        Ok(ToolOutput::text(text).with_detail(ToolDetail::ToolSearch {
            query: input.query.clone(),
            loaded,
            total_deferred: u32::try_from(tools.len()).unwrap_or(u32::MAX),
        }))
    }
}

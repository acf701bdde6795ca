//! WebSearch: the model provider's own web search (Anthropic's `web_search` server tool). The tool is offered as
//! the provider's definition (with `max_uses`, `allowed_domains`, `blocked_domains`), the provider runs the
//! searches, and the results come back in the model's message; the executor never calls it. This module also
//! turns a result block into the links the transcript shows.

use std::sync::OnceLock;

use serde_json::{Value, json};
use tandem_protocol::{ToolDetail, WebLink};

use crate::tool::{DynTool, InterruptBehavior, PreparedCall, ToolContext, names};

/// The provider's tool type this client speaks.
pub const SERVER_TOOL_TYPE: &str = "web_search_20250305";
/// The name the provider knows the tool by.
pub const SERVER_TOOL_NAME: &str = "web_search";

/// How the provider may search.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WebSearchOptions {
    /// Searches allowed per request (`None`: the provider's default).
    pub max_uses: Option<u32>,
    /// Only results from these domains (empty: any).
    pub allowed_domains: Vec<String>,
    /// Never results from these domains.
    pub blocked_domains: Vec<String>,
}

/// The WebSearch tool.
#[derive(Debug, Default)]
pub struct WebSearchTool {
    options: WebSearchOptions,
    schema: OnceLock<Value>,
}

impl WebSearchTool {
    pub fn new(options: WebSearchOptions) -> Self {
        Self {
            options,
            schema: OnceLock::new(),
        }
    }
}

impl DynTool for WebSearchTool {
    fn name(&self) -> &str {
        names::WEB_SEARCH
    }

    fn aliases(&self) -> &[&str] {
        &[SERVER_TOOL_NAME]
    }

    fn description(&self) -> String {
        "Searches the web (run by the model provider) and gives results with links; cite the sources you use."
            .into()
    }

    fn input_schema(&self) -> &Value {
        self.schema.get_or_init(|| {
            json!({"type": "object", "properties": {"query": {"type": "string", "minLength": 2}},
                   "required": ["query"]})
        })
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

    fn server_definition(&self) -> Option<Value> {
        let mut definition = json!({"type": SERVER_TOOL_TYPE, "name": SERVER_TOOL_NAME});
        if let Some(max) = self.options.max_uses {
            definition["max_uses"] = json!(max);
        }
        if !self.options.allowed_domains.is_empty() {
            definition["allowed_domains"] = json!(self.options.allowed_domains);
        }
        if !self.options.blocked_domains.is_empty() {
            definition["blocked_domains"] = json!(self.options.blocked_domains);
        }
        Some(definition)
    }

    fn prepare(&self, _input: &Value) -> Result<Box<dyn PreparedCall>, String> {
        Err("WebSearch is run by the model provider, not as a tool call; nothing ran.".into())
    }

    fn backfill_observable_input(&self, _input: &mut Value, _ctx: &ToolContext) {}
}

/// The links (or the error) of a `web_search_tool_result` block's content, for the transcript.
pub fn search_detail(query: &str, content: &Value) -> ToolDetail {
    let error = content
        .get("error_code")
        .and_then(Value::as_str)
        .map(str::to_string);
    let results = content
        .as_array()
        .map(|items| {
            items
                .iter()
                .filter(|r| r["type"] == "web_search_result")
                .map(|r| WebLink {
                    title: r["title"].as_str().unwrap_or_default().to_string(),
                    url: r["url"].as_str().unwrap_or_default().to_string(),
                    page_age: r["page_age"].as_str().map(str::to_string),
                })
                .collect()
        })
        .unwrap_or_default();
    ToolDetail::WebSearch {
        query: query.to_string(),
        results,
        error,
    }
}

/// The result as text: one line per link, or the error.
pub fn search_text(detail: &ToolDetail) -> String {
    match detail {
        ToolDetail::WebSearch {
            error: Some(code), ..
        } => format!("The web search failed: {code}"),
        ToolDetail::WebSearch { query, results, .. } => {
            let mut text = format!("Web search results for \"{query}\":");
            for link in results {
                text.push_str(&format!("\n- [{}]({})", link.title, link.url));
            }
            text
        }
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_definition_carries_the_limits_and_domains() {
        let tool = WebSearchTool::new(WebSearchOptions {
            max_uses: Some(3),
            allowed_domains: vec!["docs.rs".into()],
            blocked_domains: vec![],
        });
        assert_eq!(
            tool.server_definition(),
            Some(
                json!({"type": "web_search_20250305", "name": "web_search", "max_uses": 3,
                        "allowed_domains": ["docs.rs"]})
            )
        );
        assert!(tool.prepare(&json!({"query": "x"})).is_err());
    }

    #[test]
    fn results_become_links_and_errors_are_named() {
        let content = json!([
            {"type": "web_search_result", "title": "Serde", "url": "https://serde.rs/", "page_age": "2 days ago",
             "encrypted_content": "..."},
            {"type": "web_search_result", "title": "Docs", "url": "https://docs.rs/serde"}
        ]);
        let detail = search_detail("serde", &content);
        let ToolDetail::WebSearch { results, error, .. } = &detail else {
            panic!("{detail:?}");
        };
        assert_eq!(results.len(), 2);
        assert_eq!(results[0].page_age.as_deref(), Some("2 days ago"));
        assert!(error.is_none());
        assert_eq!(
            search_text(&detail),
            "Web search results for \"serde\":\n- [Serde](https://serde.rs/)\n- [Docs](https://docs.rs/serde)"
        );
        let failed = search_detail(
            "x",
            &json!({"type": "web_search_tool_result_error", "error_code": "max_uses_exceeded"}),
        );
        assert!(search_text(&failed).contains("max_uses_exceeded"));
    }
}

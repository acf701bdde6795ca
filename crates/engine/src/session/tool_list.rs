//! The tools of a session as a list for people: what the model is offered, and what it is not, with why (a deny
//! rule; a tool the provider does not have).

use std::sync::Arc;

pub use tandem_protocol::ToolListing;

use crate::model::Provider;
use crate::registry::ToolPool;
use crate::tool::DynTool;
use crate::tools::web_search::{WebSearchOptions, WebSearchTool};

/// The WebSearch tool for `provider`, or why there is none.
pub fn web_search_for(provider: Provider) -> Result<Arc<dyn DynTool>, String> {
    match provider {
        Provider::Anthropic => Ok(Arc::new(WebSearchTool::new(WebSearchOptions {
            max_uses: Some(8),
            ..WebSearchOptions::default()
        }))),
        Provider::OpenAiCompatible => Err(
            "not available: OpenAI-compatible servers have no server-side web search".to_string(),
        ),
    }
}

/// The listing: the pool's tools (those a deny rule in force hides marked so), then the tools the session could
/// not have, each with its reason.
pub fn tool_listing(
    pool: &ToolPool,
    hidden: impl Fn(&str) -> bool,
    missing: &[(String, String)],
) -> Vec<ToolListing> {
    let mut list: Vec<ToolListing> = pool
        .tools()
        .iter()
        .map(|t| {
            let denied = hidden(t.name());
            ToolListing {
                name: t.name().to_string(),
                offered: !denied,
                reason: denied.then(|| "removed by a deny rule".to_string()),
            }
        })
        .collect();
    list.extend(missing.iter().map(|(name, why)| ToolListing {
        name: name.clone(),
        offered: false,
        reason: Some(why.clone()),
    }));
    list
}

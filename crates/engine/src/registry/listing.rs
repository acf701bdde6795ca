//! The tools of a session as a list for people: what the model is offered, and what it is not, with why (a deny
//! rule; a tool the provider does not have).

use std::sync::Arc;

pub use tandem_protocol::ToolListing;

use super::ToolPool;
use crate::model::Provider;
use crate::tool::{DeferredTools, DynTool, names};
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

/// The listing: the pool's tools (those a deny rule in force hides marked so, deferred tools not loaded yet and
/// ToolSearch when nothing is deferred said so), then the tools the session could not have, each with its reason.
pub fn tool_listing(
    pool: &ToolPool,
    hidden: impl Fn(&str) -> bool,
    deferred: &DeferredTools,
    missing: &[(String, String)],
) -> Vec<ToolListing> {
    let mut list: Vec<ToolListing> = pool
        .tools()
        .iter()
        .map(|t| {
            let name = t.name();
            let (offered, reason) = if hidden(name) {
                (false, Some("removed by a deny rule".to_string()))
            } else if name == names::TOOL_SEARCH && !deferred.is_active() {
                (
                    false,
                    Some("not needed: every tool's definition is sent".to_string()),
                )
            } else if deferred.withholds(name) {
                (
                    true,
                    Some("deferred: sent by name until ToolSearch loads it".to_string()),
                )
            } else {
                (true, None)
            };
            ToolListing {
                name: name.to_string(),
                offered,
                reason,
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

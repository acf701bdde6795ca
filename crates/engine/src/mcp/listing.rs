//! A server's `tools/list`, read entry by entry. `rmcp`'s typed listing refuses the whole answer when one tool does
//! not fit its types (an input schema that is not an object), which would take the server's good tools with it;
//! here each page is taken as JSON and every entry judged on its own later (see `McpTool::from_listing`).

use rmcp::Peer;
use rmcp::model::{ClientRequest, ListToolsRequest, PaginatedRequestParams};
use rmcp::service::RoleClient;
use serde_json::Value;

/// The most pages followed (a server whose cursors never end is cut off there).
const MAX_PAGES: usize = 100;

/// Why a listing could not be read.
#[derive(Debug)]
pub enum ListingError {
    /// The request failed.
    Request(rmcp::ServiceError),
    /// The answer holds no list of tools.
    NoTools,
}

/// Every entry of the server's tool list, as JSON, following `nextCursor` from page to page.
pub async fn list_tools(peer: &Peer<RoleClient>) -> Result<Vec<Value>, ListingError> {
    let mut tools = Vec::new();
    let mut cursor: Option<String> = None;
    for _ in 0..MAX_PAGES {
        let request = match cursor.take() {
            Some(cursor) => ListToolsRequest::with_param(
                PaginatedRequestParams::default().with_cursor(Some(cursor)),
            ),
            None => ListToolsRequest::default(),
        };
        let answer = peer
            .send_request(ClientRequest::ListToolsRequest(request))
            .await
            .map_err(ListingError::Request)?;
        // Whichever shape the typed answer took (the tool list, or raw JSON when a tool did not fit), as JSON.
        let page = serde_json::to_value(&answer).map_err(|_| ListingError::NoTools)?;
        let entries = page
            .get("tools")
            .and_then(Value::as_array)
            .ok_or(ListingError::NoTools)?;
        tools.extend(entries.iter().cloned());
        cursor = page
            .get("nextCursor")
            .and_then(Value::as_str)
            .filter(|c| !c.is_empty())
            .map(str::to_string);
        if cursor.is_none() {
            break;
        }
    }
    Ok(tools)
}

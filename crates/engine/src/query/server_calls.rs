//! The tools the provider runs inside a model response (web search): shown in the transcript like tool calls —
//! started, with their input, then their result as a list of links — though the executor never runs them and no
//! result is owed for them.

use std::collections::HashMap;
use std::sync::Arc;

use serde_json::Value;
use tandem_protocol::{RenderHints, SessionEvent, ToolCallStatus, ToolKind, ToolOutcome};

use crate::events::EventSink;
use crate::tool::names;
use crate::tools::web_search::{SERVER_TOOL_NAME, search_detail, search_text};

/// The server tool calls of one response, by id, with their queries.
#[derive(Debug, Default)]
pub(super) struct ServerCalls {
    queries: HashMap<String, String>,
}

/// The name the transcript shows for a provider's tool.
fn shown_name(name: &str) -> String {
    if name == SERVER_TOOL_NAME {
        names::WEB_SEARCH.to_string()
    } else {
        name.to_string()
    }
}

impl ServerCalls {
    /// The provider started `name` with `input`.
    pub fn started(
        &mut self,
        events: &Arc<dyn EventSink>,
        id: String,
        name: String,
        input: &Value,
    ) {
        let query = input["query"].as_str().unwrap_or_default().to_string();
        let name = shown_name(&name);
        events.emit(SessionEvent::ToolCallStarted {
            tool_use_id: id.clone(),
            name: name.clone(),
        });
        events.emit(SessionEvent::ToolCallInput {
            tool_use_id: id.clone(),
            name,
            input: input.clone(),
            hints: RenderHints {
                kind: ToolKind::Fetch,
                title: format!("Search the web: {query}"),
                collapsible: true,
            },
        });
        events.emit(SessionEvent::ToolCallStatusChanged {
            tool_use_id: id.clone(),
            status: ToolCallStatus::Executing,
        });
        self.queries.insert(id, query);
    }

    /// The provider's result of call `id`.
    pub fn finished(&mut self, events: &Arc<dyn EventSink>, id: &str, content: &Value) {
        let query = self.queries.remove(id).unwrap_or_default();
        let detail = search_detail(&query, content);
        let failed = matches!(
            &detail,
            tandem_protocol::ToolDetail::WebSearch { error: Some(_), .. }
        );
        events.emit(SessionEvent::ToolCallResult {
            tool_use_id: id.to_string(),
            outcome: if failed {
                ToolOutcome::Error
            } else {
                ToolOutcome::Success
            },
            content: search_text(&detail),
            detail: Some(detail),
        });
        events.emit(SessionEvent::ToolCallStatusChanged {
            tool_use_id: id.to_string(),
            status: ToolCallStatus::Completed,
        });
    }
}

//! The resource tools: `ListMcpResourcesTool` lists what the ready servers offer (one server, or all of them) and
//! `ReadMcpResourceTool` reads one resource by server and URI.

use std::sync::Arc;

use rmcp::model::Resource;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use tandem_protocol::{RenderHints, ToolKind};

use super::content::{resource_block, simplify};
use super::limits::REQUEST_TIMEOUT;
use super::link::ServerLink;
use crate::tool::{Tool, ToolContext, ToolError, ToolOutput, names};

/// Gives the links of the servers that are ready now.
pub type Links = Arc<dyn Fn() -> Vec<Arc<ServerLink>> + Send + Sync>;

fn find(links: &Links, server: &str) -> Result<Arc<ServerLink>, ToolError> {
    let all = links();
    all.iter()
        .find(|l| l.server == server)
        .cloned()
        .ok_or_else(|| {
            let names: Vec<&str> = all.iter().map(|l| l.server.as_str()).collect();
            ToolError::to_model(format!(
                "no connected MCP server is called `{server}` (connected: {})",
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(", ")
                }
            ))
        })
}

/// Lists resources.
pub struct ListResources(pub Links);

/// One listed resource as the model reads it: the server's entry and the server's name.
#[derive(Serialize)]
struct Listed {
    #[serde(flatten)]
    resource: Resource,
    server: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ListInput {
    /// Only this server's resources (all connected servers when left out).
    #[serde(default)]
    pub server: Option<String>,
}

impl Tool for ListResources {
    type Input = ListInput;

    fn name(&self) -> &'static str {
        names::LIST_MCP_RESOURCES
    }

    fn description(&self) -> String {
        "Lists the resources the connected MCP servers offer (files, records, documents...), each with its server, \
         URI, name and type. Give `server` to list one server's resources. Read one with ReadMcpResourceTool."
            .into()
    }

    fn is_concurrency_safe(&self, _input: &ListInput) -> bool {
        true
    }

    fn is_read_only(&self, _input: &ListInput) -> bool {
        true
    }

    fn render_hints(&self, input: &ListInput, _ctx: &ToolContext) -> RenderHints {
        RenderHints {
            kind: ToolKind::List,
            title: match &input.server {
                Some(s) => format!("List MCP resources of {s}"),
                None => "List MCP resources".into(),
            },
            collapsible: true,
        }
    }

    async fn call(&self, input: &ListInput, ctx: &ToolContext) -> Result<ToolOutput, ToolError> {
        let links = match &input.server {
            Some(server) => vec![find(&self.0, server)?],
            None => (self.0)(),
        };
        let mut all = Vec::new();
        let mut problems = Vec::new();
        for link in links {
            let Some(connection) = link.connection() else {
                continue;
            };
            if !connection.has_resources() {
                continue;
            }
            let listed = tokio::select! {
                r = connection.list_resources(REQUEST_TIMEOUT) => r,
                _ = ctx.cancel.cancelled() => return Err(ToolError::Cancelled),
            };
            match listed {
                Ok(resources) => all.extend(resources.into_iter().map(|resource| Listed {
                    server: link.server.clone(),
                    resource,
                })),
                Err(e) => problems.push(link.describe(&e, &connection)),
            }
        }
        let mut text = serde_json::to_string_pretty(&all).unwrap_or_else(|_| "[]".into());
        if all.is_empty() {
            text = "No resources found.".into();
        }
        for p in problems {
            text.push('\n');
            text.push_str(&p);
        }
        Ok(ToolOutput::text(text))
    }
}

/// Reads one resource.
pub struct ReadResource(pub Links);

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadInput {
    /// The MCP server's name.
    pub server: String,
    /// The resource's URI.
    pub uri: String,
}

impl Tool for ReadResource {
    type Input = ReadInput;

    fn name(&self) -> &'static str {
        names::READ_MCP_RESOURCE
    }

    fn description(&self) -> String {
        "Reads one resource of a connected MCP server by its server name and URI (as ListMcpResourcesTool lists \
         them)."
            .into()
    }

    fn is_concurrency_safe(&self, _input: &ReadInput) -> bool {
        true
    }

    fn is_read_only(&self, _input: &ReadInput) -> bool {
        true
    }

    fn render_hints(&self, input: &ReadInput, _ctx: &ToolContext) -> RenderHints {
        RenderHints {
            kind: ToolKind::Read,
            title: format!("Read {} from {}", input.uri, input.server),
            collapsible: true,
        }
    }

    async fn call(&self, input: &ReadInput, ctx: &ToolContext) -> Result<ToolOutput, ToolError> {
        let link = find(&self.0, &input.server)?;
        let connection = link.require().map_err(ToolError::ToModel)?;
        let read = tokio::select! {
            r = connection.read_resource(&input.uri, REQUEST_TIMEOUT) => r,
            _ = ctx.cancel.cancelled() => return Err(ToolError::Cancelled),
        };
        let result = read.map_err(|e| ToolError::ToModel(link.describe(&e, &connection)))?;
        let blocks: Vec<_> = result.contents.iter().map(resource_block).collect();
        if blocks.is_empty() {
            return Ok(ToolOutput::text(format!("{} has no content.", input.uri)));
        }
        Ok(ToolOutput {
            content: simplify(blocks),
            detail: None,
            context_change: None,
            new_messages: Vec::new(),
            structured: None,
        })
    }
}

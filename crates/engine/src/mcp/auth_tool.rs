//! The `McpAuth` tool: the model asks to sign in to a remote MCP server that needs it; the person's browser opens
//! on the server's authorization page and the tool answers with that page's URL (to give the person when no
//! browser could be opened). The server's tools arrive once the person has signed in.

use schemars::JsonSchema;
use serde::Deserialize;
use tandem_protocol::{RenderHints, ToolKind};

use super::manager::SignInHandle;
use crate::tool::{Tool, ToolContext, ToolError, ToolOutput, names};

/// Starts a sign-in.
pub struct McpAuth(pub SignInHandle);

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct McpAuthInput {
    /// The name of the MCP server to sign in to (one listed as needing sign-in).
    pub server: String,
}

impl Tool for McpAuth {
    type Input = McpAuthInput;

    fn name(&self) -> &'static str {
        names::MCP_AUTH
    }

    fn description(&self) -> String {
        let waiting = self.0.waiting();
        let which = if waiting.is_empty() {
            "none needs it now".to_string()
        } else {
            format!("needing it now: {}", waiting.join(", "))
        };
        format!(
            "Signs in to a remote MCP server that requires OAuth ({which}): opens the server's sign-in page in the \
             person's browser and returns its URL. The server's tools become available once the person has signed \
             in; tell them to complete the sign-in in the browser."
        )
    }

    fn render_hints(&self, input: &McpAuthInput, _ctx: &ToolContext) -> RenderHints {
        RenderHints {
            kind: ToolKind::Other,
            title: format!("Sign in to MCP server {}", input.server),
            collapsible: false,
        }
    }

    async fn call(
        &self,
        input: &McpAuthInput,
        _ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let started = self
            .0
            .sign_in(&input.server)
            .await
            .map_err(ToolError::ToModel)?;
        let text = match started.open_error {
            None => format!(
                "The sign-in page for `{}` is open in the browser ({}). Once the person signs in there, the \
                 server connects and its tools become available.",
                input.server, started.authorization_url
            ),
            Some(why) => format!(
                "The browser could not be opened ({why}). Ask the person to open this URL to sign in to `{}`: {}",
                input.server, started.authorization_url
            ),
        };
        Ok(ToolOutput::text(text))
    }
}

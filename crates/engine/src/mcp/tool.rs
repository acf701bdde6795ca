//! A remote tool as a [`DynTool`]: named `mcp__<server>__<tool>`, its input checked against the server's
//! `inputSchema` before anything is sent, its annotations deciding concurrency (`readOnlyHint`) and
//! destructiveness (`destructiveHint`), its result converted to content blocks, `isError` made a tool error and the
//! structured content checked against the `outputSchema` and kept for the window. Its listing entry stays JSON (see
//! `listing`: one tool that does not fit the protocol's types must cost only itself); results are the protocol's
//! types.

use std::sync::{Arc, OnceLock};

use futures::future::BoxFuture;
use serde_json::Value;
use tandem_protocol::{FileDiff, RenderHints, ToolDetail, ToolKind};

use super::content::convert_call_result;
use super::link::ServerLink;
use super::names;
use crate::settings::json_kind;
use crate::tool::{
    DynTool, InterruptBehavior, PermissionSubject, PreparedCall, ToolContext, ToolError,
    ToolOutput, schema_errors,
};

/// The longest tool description sent to the model.
const MAX_DESCRIPTION_CHARS: usize = 2_048;

/// What a server says about one tool.
#[derive(Debug, Clone)]
struct Info {
    name: String,
    remote: String,
    title: Option<String>,
    description: String,
    schema: Value,
    output_schema: Option<Value>,
    read_only: bool,
    destructive: bool,
}

struct Inner {
    info: Info,
    link: Arc<ServerLink>,
    validator: OnceLock<Result<jsonschema::Validator, String>>,
    output_validator: OnceLock<Option<Result<jsonschema::Validator, String>>>,
}

/// One tool of one MCP server.
#[derive(Clone)]
pub struct McpTool(Arc<Inner>);

impl std::fmt::Debug for McpTool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("McpTool").field(&self.0.info.name).finish()
    }
}

fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max).collect();
    out.push_str("… [description cut]");
    out
}

impl McpTool {
    /// The tool a server listed (`tools/list` entry as JSON). `Err` says why it cannot be offered: it has no name,
    /// or its input schema is not an object schema that compiles (the model's API would refuse every request that
    /// carried it). A missing schema is taken as "any object".
    pub fn from_listing(link: Arc<ServerLink>, listing: &Value) -> Result<Self, String> {
        let remote = listing
            .get("name")
            .and_then(Value::as_str)
            .ok_or("it has no name")?
            .to_string();
        let annotations = listing.get("annotations");
        let hint = |key: &str| {
            annotations
                .and_then(|a| a.get(key))
                .and_then(Value::as_bool)
        };
        let title = listing
            .get("title")
            .and_then(Value::as_str)
            .or_else(|| {
                annotations
                    .and_then(|a| a.get("title"))
                    .and_then(Value::as_str)
            })
            .map(str::to_string);
        let mut schema = match listing.get("inputSchema") {
            None | Some(Value::Null) => serde_json::json!({"type": "object"}),
            Some(Value::Object(schema)) => Value::Object(schema.clone()),
            Some(other) => {
                return Err(format!(
                    "its input schema is not a JSON object but {}",
                    json_kind(other)
                ));
            }
        };
        if let Some(obj) = schema.as_object_mut() {
            let kind = obj
                .entry("type")
                .or_insert_with(|| Value::String("object".into()));
            if kind != "object" {
                return Err(format!("its input schema describes {kind}, not an object"));
            }
        }
        let validator = jsonschema::validator_for(&schema)
            .map_err(|e| format!("its input schema is not a valid JSON Schema: {e}"))?;
        let read_only = hint("readOnlyHint") == Some(true);
        Ok(Self(Arc::new(Inner {
            info: Info {
                name: names::tool_name(&link.server, &remote),
                remote,
                title,
                description: cut(
                    listing
                        .get("description")
                        .and_then(Value::as_str)
                        .unwrap_or(""),
                    MAX_DESCRIPTION_CHARS,
                ),
                schema,
                output_schema: listing
                    .get("outputSchema")
                    .cloned()
                    .filter(Value::is_object),
                read_only,
                // Per the protocol a tool that is not read-only is destructive unless it says otherwise.
                destructive: !read_only && hint("destructiveHint") != Some(false),
            },
            link,
            validator: OnceLock::from(Ok(validator)),
            output_validator: OnceLock::new(),
        })))
    }

    /// The tool's name on its server.
    pub fn remote_name(&self) -> &str {
        &self.0.info.remote
    }

    /// The human title the server gave, if any.
    pub fn title(&self) -> Option<&str> {
        self.0.info.title.as_deref()
    }
}

impl DynTool for McpTool {
    fn name(&self) -> &str {
        &self.0.info.name
    }
    fn aliases(&self) -> &[&str] {
        &[]
    }
    fn description(&self) -> String {
        self.0.info.description.clone()
    }
    fn input_schema(&self) -> &Value {
        &self.0.info.schema
    }
    fn output_schema(&self) -> Option<&Value> {
        self.0.info.output_schema.as_ref()
    }
    fn max_result_size_chars(&self) -> usize {
        self.0.link.limits.max_output_chars()
    }
    fn is_enabled(&self) -> bool {
        true
    }
    fn interrupt_behavior(&self) -> InterruptBehavior {
        InterruptBehavior::Cancel
    }
    fn is_mcp(&self) -> bool {
        true
    }

    fn prepare(&self, input: &Value) -> Result<Box<dyn PreparedCall>, String> {
        let validator = self.0.validator.get_or_init(|| {
            jsonschema::validator_for(&self.0.info.schema).map_err(|e| {
                format!(
                    "the input schema MCP server `{}` gave for `{}` is invalid: {e}",
                    self.0.link.server, self.0.info.remote
                )
            })
        });
        let validator = validator.as_ref().map_err(Clone::clone)?;
        if let Some(errors) = schema_errors(validator, input) {
            return Err(format!(
                "InputValidationError: the input for {} does not fit its schema: {errors}",
                self.0.info.name
            ));
        }
        let arguments = match input {
            Value::Object(map) => Some(map.clone()),
            Value::Null => None,
            other => {
                return Err(format!(
                    "InputValidationError: the input for {} must be an object, not {other}",
                    self.0.info.name
                ));
            }
        };
        Ok(Box::new(Call {
            tool: self.clone(),
            arguments,
        }))
    }

    fn backfill_observable_input(&self, _input: &mut Value, _ctx: &ToolContext) {}
}

/// One checked call of an MCP tool.
struct Call {
    tool: McpTool,
    arguments: Option<serde_json::Map<String, Value>>,
}

impl Call {
    fn check_structured(&self, structured: Option<&Value>) -> Result<(), String> {
        let inner = &self.tool.0;
        let Some(schema) = &inner.info.output_schema else {
            return Ok(());
        };
        let validator = inner
            .output_validator
            .get_or_init(|| Some(jsonschema::validator_for(schema).map_err(|e| e.to_string())));
        let Some(Ok(validator)) = validator else {
            // A server whose output schema cannot be compiled: its results are taken as they come.
            return Ok(());
        };
        let server = &inner.link.server;
        let tool = &inner.info.remote;
        match structured {
            None => Err(format!(
                "MCP server `{server}`: `{tool}` declares an output schema but returned no structured content"
            )),
            Some(value) => match schema_errors(validator, value) {
                Some(errors) => Err(format!(
                    "MCP server `{server}`: the result of `{tool}` does not fit the output schema it declares: {errors}"
                )),
                None => Ok(()),
            },
        }
    }

    async fn run(&self, ctx: &ToolContext) -> Result<ToolOutput, ToolError> {
        let inner = &self.tool.0;
        let link = &inner.link;
        let connection = link.ready().await.map_err(ToolError::ToModel)?;
        let result = connection
            .call_tool(
                &inner.info.remote,
                self.arguments.clone(),
                link.limits.tool_call,
                ctx.progress.clone(),
                &ctx.cancel,
            )
            .await;
        let result = match result {
            Ok(result) => result,
            Err(super::client::ClientError::Cancelled) => return Err(ToolError::Cancelled),
            Err(e) => return Err(ToolError::ToModel(link.describe(&e, &connection))),
        };
        let converted = convert_call_result(&result);
        if converted.is_error {
            let text = converted.content.as_text();
            return Err(ToolError::ToModel(if text.trim().is_empty() {
                format!(
                    "MCP server `{}`: `{}` failed without a message",
                    link.server, inner.info.remote
                )
            } else {
                text
            }));
        }
        self.check_structured(converted.structured.as_ref())
            .map_err(ToolError::ToModel)?;
        Ok(ToolOutput {
            content: converted.content,
            detail: Some(ToolDetail::Mcp {
                server: link.server.clone(),
                tool: inner.info.remote.clone(),
                structured_content: converted.structured,
                meta: converted.meta,
            }),
            context_change: None,
            new_messages: Vec::new(),
            structured: None,
        })
    }
}

impl PreparedCall for Call {
    fn is_concurrency_safe(&self) -> bool {
        self.tool.0.info.read_only
    }
    fn is_read_only(&self) -> bool {
        self.tool.0.info.read_only
    }
    fn is_destructive(&self) -> bool {
        self.tool.0.info.destructive
    }
    fn render_hints(&self, _ctx: &ToolContext) -> RenderHints {
        let info = &self.tool.0.info;
        let shown = info.title.as_deref().unwrap_or(&info.remote);
        RenderHints {
            kind: ToolKind::Other,
            title: format!("{shown} ({} MCP)", self.tool.0.link.server),
            collapsible: info.read_only,
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
    fn call<'a>(&'a self, ctx: &'a ToolContext) -> BoxFuture<'a, Result<ToolOutput, ToolError>> {
        Box::pin(self.run(ctx))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcp::limits::Limits;
    use serde_json::json;

    fn tool(listing: Value) -> McpTool {
        McpTool::from_listing(
            Arc::new(ServerLink::new("my server", Limits::default())),
            &listing,
        )
        .expect("named")
    }

    #[test]
    fn annotations_decide_the_traits_and_the_name_is_normalised() {
        let ctx = ToolContext::new("/tmp");
        let read = tool(json!({"name": "get.thing", "title": "Get a thing",
            "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}}));
        assert_eq!(read.name(), "mcp__my_server__get_thing");
        let call = read.prepare(&json!({})).expect("valid");
        assert!(call.is_concurrency_safe() && call.is_read_only() && !call.is_destructive());
        assert_eq!(call.render_hints(&ctx).title, "Get a thing (my server MCP)");

        let plain = tool(json!({"name": "do", "inputSchema": {"type": "object"}}));
        let call = plain.prepare(&json!({})).expect("valid");
        assert!(!call.is_concurrency_safe() && !call.is_read_only() && call.is_destructive());

        let additive = tool(json!({"name": "add", "inputSchema": {"type": "object"},
            "annotations": {"destructiveHint": false}}));
        assert!(
            !additive
                .prepare(&json!({}))
                .expect("valid")
                .is_destructive()
        );
    }

    #[test]
    fn input_is_checked_against_the_servers_schema() {
        let t = tool(json!({"name": "add", "inputSchema": {"type": "object",
            "properties": {"a": {"type": "number"}}, "required": ["a"]}}));
        assert!(t.prepare(&json!({"a": 1})).is_ok());
        let err = t.prepare(&json!({"a": "one"})).err().expect("invalid");
        assert!(
            err.starts_with("InputValidationError") && err.contains("/a"),
            "{err}"
        );
        assert!(t.prepare(&json!({})).is_err());
    }

    #[test]
    fn a_tool_whose_input_schema_cannot_be_used_is_refused_with_the_reason() {
        let link = Arc::new(ServerLink::new("my server", Limits::default()));
        // (listing, part of the reason)
        let cases = [
            (json!({"inputSchema": {"type": "object"}}), "no name"),
            (
                json!({"name": "s", "inputSchema": "anything"}),
                "not a JSON object but a string",
            ),
            (
                json!({"name": "a", "inputSchema": [1]}),
                "not a JSON object but an array",
            ),
            (
                json!({"name": "t", "inputSchema": {"type": "string"}}),
                "describes \"string\", not an object",
            ),
            (
                json!({"name": "b", "inputSchema": {"type": 12}}),
                "describes 12",
            ),
            (
                json!({"name": "p", "inputSchema": {"type": "object", "properties": {"n": {"type": 5}}}}),
                "not a valid JSON Schema",
            ),
        ];
        for (listing, why) in cases {
            let err = McpTool::from_listing(link.clone(), &listing).expect_err("refused");
            assert!(err.contains(why), "{listing}: {err}");
        }
        assert!(
            McpTool::from_listing(link, &json!({"name": "none"})).is_ok(),
            "no schema: any object"
        );
    }
}

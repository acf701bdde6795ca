//! A small MCP server for Tandem's tests and benchmarks, built on `rmcp`'s server side. Over stdio by default, or
//! streamable HTTP on loopback with `--http` (it prints `listening on <url>` when ready). Tools with and without
//! annotations, a slow tool that reports progress and notices cancellation, a tool that crashes the process, large
//! and schema-violating results, resources, prompts (one failing), `tools/list_changed` / `prompts/list_changed`, and
//! a tool that asks the user for a form (elicitation).
//! Flags make it misbehave on purpose: `--exit-at-once`, `--garbage`, `--silent` (never answers `initialize`),
//! `--start-delay-ms N`, `--wait-for-file PATH` (starts once PATH exists), `--raw-tools` (a hand-written server
//! listing tools with broken input schemas beside a good one). `--http ADDR --bearer T1,T2 --auth-server
//! URL` guards the HTTP server with OAuth bearer tokens; `--legacy-sse ADDR` speaks the older HTTP+SSE transport.
//! `TANDEM_TEST_MCP_LOG=FILE` appends one line per notable event (a cancelled call) for tests to wait on.

mod raw;
mod remote;

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ElicitRequestParams,
    GetPromptRequestParams, GetPromptResponse, GetPromptResult, ListPromptsResult,
    ListResourcesResult, ListToolsResult, PaginatedRequestParams, ProgressNotificationParam,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, ServerConfig,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler, ServiceExt};
use serde_json::{Value, json};

/// A 1×1 transparent PNG.
const PIXEL_PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

#[derive(Clone, Default)]
struct TestServer {
    /// Set by `add_tool`: the `extra` tool is listed from then on.
    extra: Arc<AtomicBool>,
    /// Set by `add_prompt`: the `later` prompt is listed from then on.
    later: Arc<AtomicBool>,
}

fn log(line: &str) {
    if let Ok(path) = std::env::var("TANDEM_TEST_MCP_LOG")
        && let Ok(mut f) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
    {
        let _ = writeln!(f, "{line}");
    }
}

fn from_json<T: serde::de::DeserializeOwned>(value: Value) -> Result<T, ErrorData> {
    serde_json::from_value(value).map_err(|e| ErrorData::internal_error(e.to_string(), None))
}

fn text_result(text: impl Into<String>) -> Result<CallToolResponse, ErrorData> {
    let result: CallToolResult =
        from_json(json!({"content": [{"type": "text", "text": text.into()}]}))?;
    Ok(result.into())
}

fn tool_list(extra: bool) -> Value {
    let mut tools = vec![
        json!({"name": "echo", "title": "Echo text", "description": "Returns the text it is given.",
            "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
            "annotations": {"readOnlyHint": true}}),
        json!({"name": "add", "description": "Adds two numbers.",
            "inputSchema": {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
                "required": ["a", "b"]},
            "outputSchema": {"type": "object", "properties": {"sum": {"type": "number"}}, "required": ["sum"]}}),
        json!({"name": "destroy", "description": "Pretends to delete something.",
            "inputSchema": {"type": "object"}, "annotations": {"destructiveHint": true}}),
        json!({"name": "slow", "description": "Takes `steps` steps of `delay_ms`, reporting progress.",
            "inputSchema": {"type": "object", "properties": {"steps": {"type": "integer"}, "delay_ms": {"type": "integer"}}}}),
        json!({"name": "crash", "description": "Exits the server process.", "inputSchema": {"type": "object"}}),
        json!({"name": "big", "description": "Returns `bytes` bytes of text.",
            "inputSchema": {"type": "object", "properties": {"bytes": {"type": "integer"}}, "required": ["bytes"]}}),
        json!({"name": "bad_output", "description": "Returns structured content that breaks its own schema.",
            "inputSchema": {"type": "object"},
            "outputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}}),
        json!({"name": "fail", "description": "Always reports an error.", "inputSchema": {"type": "object"}}),
        json!({"name": "image", "description": "Returns a one-pixel image and a resource.", "inputSchema": {"type": "object"}}),
        json!({"name": "add_tool", "description": "Adds the `extra` tool and announces the change.",
            "inputSchema": {"type": "object"}}),
        json!({"name": "add_prompt", "description": "Adds the `later` prompt and announces the change.",
            "inputSchema": {"type": "object"}}),
        json!({"name": "ask", "description": "Asks the user for their details (elicitation) and says what came back.",
            "inputSchema": {"type": "object"}}),
        json!({"name": "approve", "description": "Answers permission questions (--permission-prompt-tool) by a fixed policy.",
            "inputSchema": {"type": "object", "properties": {"tool_name": {"type": "string"}, "input": {"type": "object"},
                "tool_use_id": {"type": "string"}}, "required": ["tool_name", "input"]}}),
    ];
    if extra {
        tools.push(json!({"name": "extra", "description": "Appears after add_tool.", "inputSchema": {"type": "object"}}));
    }
    json!({ "tools": tools })
}

impl TestServer {
    async fn slow(
        &self,
        args: &Value,
        ctx: &RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let steps = args.get("steps").and_then(Value::as_u64).unwrap_or(3);
        let delay = args.get("delay_ms").and_then(Value::as_u64).unwrap_or(100);
        let token = ctx.meta.get_progress_token();
        for step in 1..=steps {
            tokio::select! {
                _ = tokio::time::sleep(Duration::from_millis(delay)) => {}
                _ = ctx.ct.cancelled() => {
                    log(&format!("cancelled slow at step {step}"));
                    return Err(ErrorData::internal_error("cancelled", None));
                }
            }
            if let Some(token) = &token {
                let mut p = ProgressNotificationParam::new(token.clone(), step as f64);
                p.total = Some(steps as f64);
                p.message = Some(format!("step {step}"));
                let _ = ctx.peer.notify_progress(p).await;
            }
        }
        text_result(format!("done after {steps} steps"))
    }
}

/// The form the `ask` tool sends: one field of each kind the specification allows.
fn ask_form() -> Value {
    json!({
        "mode": "form",
        "message": "Who should the report go to?",
        "requestedSchema": {
            "type": "object",
            "properties": {
                "name": {"type": "string", "title": "Name", "minLength": 1, "maxLength": 40},
                "email": {"type": "string", "title": "Email", "format": "email"},
                "copies": {"type": "integer", "title": "Copies", "minimum": 1, "maximum": 5, "default": 1},
                "urgent": {"type": "boolean", "title": "Urgent", "default": false},
                "format": {"type": "string", "title": "Format", "enum": ["pdf", "html"], "enumNames": ["PDF", "Web page"]}
            },
            "required": ["name", "email"]
        }
    })
}

/// Asks the client's user through an elicitation and reports the answer.
async fn ask(context: &RequestContext<RoleServer>) -> Result<CallToolResponse, ErrorData> {
    let params: ElicitRequestParams = from_json(ask_form())?;
    match context.peer.create_elicitation(params).await {
        Ok(result) => {
            let answer = serde_json::to_value(&result).unwrap_or_default();
            text_result(format!("the user answered: {answer}"))
        }
        Err(e) => text_result(format!("the elicitation failed: {e}")),
    }
}

/// The permission answer of the `approve` tool, by what the call's command holds: `forbidden` is refused,
/// `rewrite-me` runs as another command, `rewrite-to-rm` as a command that removes `keep.txt`, `garbage` gets an
/// answer that is not JSON; anything else is allowed as it is.
fn approve(args: &Value) -> String {
    let command = args["input"]["command"].as_str().unwrap_or("");
    let answer = if command.contains("forbidden") {
        json!({"behavior": "deny", "message": format!("forbidden by policy ({})", args["tool_name"])})
    } else if command.contains("rewrite-me") {
        json!({"behavior": "allow", "updatedInput": {"command": "echo rewritten > rewritten.txt"}})
    } else if command.contains("rewrite-to-rm") {
        json!({"behavior": "allow", "updatedInput": {"command": "rm -f keep.txt"}})
    } else if command.contains("garbage") {
        return "sure, go ahead".into();
    } else {
        json!({"behavior": "allow", "updatedInput": args["input"]})
    };
    answer.to_string()
}

impl ServerHandler for TestServer {
    fn get_info(&self) -> ServerConfig {
        from_json(json!({
            "protocolVersion": "2025-06-18",
            "capabilities": {"tools": {"listChanged": true}, "resources": {}, "prompts": {"listChanged": true}},
            "serverInfo": {"name": "tandem-test-mcp", "version": "1.0.0"},
            "instructions": "A server for tests."
        }))
        .unwrap_or_default()
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        from_json(tool_list(self.extra.load(Ordering::SeqCst)))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let args = Value::Object(request.arguments.clone().unwrap_or_default());
        match request.name.as_ref() {
            "echo" => text_result(args.get("text").and_then(Value::as_str).unwrap_or("")),
            "add" => {
                let a = args.get("a").and_then(Value::as_f64).unwrap_or(0.0);
                let b = args.get("b").and_then(Value::as_f64).unwrap_or(0.0);
                let result: CallToolResult = from_json(json!({
                    "content": [{"type": "text", "text": format!("{}", a + b)}],
                    "structuredContent": {"sum": a + b},
                    "_meta": {"ui/resourceUri": "ui://add/result"}
                }))?;
                Ok(result.into())
            }
            "destroy" => text_result("destroyed (not really)"),
            "slow" => self.slow(&args, &context).await,
            "crash" => {
                eprintln!("crashing on purpose");
                std::process::exit(3);
            }
            "big" => {
                let bytes = args.get("bytes").and_then(Value::as_u64).unwrap_or(0) as usize;
                let line = "0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz0123456789\n";
                let text: String = line
                    .repeat(bytes / line.len() + 1)
                    .chars()
                    .take(bytes)
                    .collect();
                text_result(text)
            }
            "bad_output" => {
                let result: CallToolResult = from_json(json!({
                    "content": [{"type": "text", "text": "n is a string"}],
                    "structuredContent": {"n": "not a number"}
                }))?;
                Ok(result.into())
            }
            "fail" => {
                let result: CallToolResult = from_json(json!({
                    "content": [{"type": "text", "text": "the tool failed on purpose"}], "isError": true
                }))?;
                Ok(result.into())
            }
            "image" => {
                let result: CallToolResult = from_json(json!({"content": [
                    {"type": "text", "text": "a pixel:"},
                    {"type": "image", "data": PIXEL_PNG, "mimeType": "image/png"},
                    {"type": "resource", "resource": {"uri": "test://greeting", "mimeType": "text/plain", "text": "hello from a resource"}}
                ]}))?;
                Ok(result.into())
            }
            "add_tool" => {
                self.extra.store(true, Ordering::SeqCst);
                let _ = context.peer.notify_tool_list_changed().await;
                text_result("added `extra`")
            }
            "extra" => text_result("extra works"),
            "ask" => ask(&context).await,
            "approve" => text_result(approve(&args)),
            "add_prompt" => {
                self.later.store(true, Ordering::SeqCst);
                let _ = context.peer.notify_prompt_list_changed().await;
                text_result("added the prompt `later`")
            }
            other => Err(ErrorData::invalid_params(format!("no tool {other}"), None)),
        }
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        from_json(json!({"resources": [
            {"uri": "test://greeting", "name": "greeting", "mimeType": "text/plain"},
            {"uri": "test://pixel", "name": "pixel", "mimeType": "image/png"}
        ]}))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let contents = match request.uri.as_str() {
            "test://greeting" => {
                json!([{"uri": "test://greeting", "mimeType": "text/plain", "text": "hello from a resource"}])
            }
            "test://pixel" => {
                json!([{"uri": "test://pixel", "mimeType": "image/png", "blob": PIXEL_PNG}])
            }
            other => {
                return Err(ErrorData::resource_not_found(
                    format!("no resource {other}"),
                    None,
                ));
            }
        };
        let result: ReadResourceResult = from_json(json!({ "contents": contents }))?;
        Ok(result.into())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        let mut prompts = vec![
            json!({"name": "greet", "description": "Greets someone.",
                "arguments": [{"name": "name", "required": true}, {"name": "style"}]}),
            json!({"name": "show", "description": "A picture and a resource.", "arguments": []}),
            json!({"name": "broken", "description": "Always fails."}),
        ];
        if self.later.load(Ordering::SeqCst) {
            prompts.push(json!({"name": "later", "description": "Appears after add_prompt."}));
        }
        from_json(json!({ "prompts": prompts }))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let arg = |key: &str| {
            request
                .arguments
                .as_ref()
                .and_then(|a| a.get(key))
                .and_then(Value::as_str)
                .map(str::to_string)
        };
        let messages = match request.name.as_str() {
            "greet" => {
                let name = arg("name").unwrap_or_else(|| "you".into());
                let style = arg("style")
                    .map(|s| format!(" Be {s}."))
                    .unwrap_or_default();
                json!([{"role": "user", "content": {"type": "text", "text": format!("Say hello to {name}.{style}")}}])
            }
            "show" => json!([
                {"role": "user", "content": {"type": "text", "text": "Describe this picture."}},
                {"role": "user", "content": {"type": "image", "data": PIXEL_PNG, "mimeType": "image/png"}},
                {"role": "assistant", "content": {"type": "resource",
                    "resource": {"uri": "test://greeting", "mimeType": "text/plain", "text": "hello from a resource"}}}
            ]),
            "later" => {
                json!([{"role": "user", "content": {"type": "text", "text": "the later prompt"}}])
            }
            "broken" => {
                return Err(ErrorData::internal_error(
                    "this prompt is broken on purpose",
                    None,
                ));
            }
            other => {
                return Err(ErrorData::invalid_params(
                    format!("no prompt {other}"),
                    None,
                ));
            }
        };
        let result: GetPromptResult = from_json(json!({ "messages": messages }))?;
        Ok(result.into())
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    log(&format!("pid {}", std::process::id()));
    let flag = |name: &str| args.iter().any(|a| a == name);
    let value = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    if let Some(ms) = value("--start-delay-ms").and_then(|v| v.parse().ok()) {
        tokio::time::sleep(Duration::from_millis(ms)).await;
    }
    if let Some(path) = value("--wait-for-file") {
        while !std::path::Path::new(&path).exists() {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
    if flag("--exit-at-once") {
        eprintln!("test server: exiting at once on purpose");
        std::process::exit(2);
    }
    if flag("--garbage") {
        println!("this is not JSON-RPC");
        println!("{{\"neither\": \"is this\"}}");
        std::io::stdout().flush()?;
        tokio::time::sleep(Duration::from_secs(3600)).await;
        return Ok(());
    }
    if flag("--raw-tools") {
        raw::serve()?;
        return Ok(());
    }
    if flag("--silent") {
        tokio::time::sleep(Duration::from_secs(3600)).await;
        return Ok(());
    }
    if let Some(addr) = value("--http") {
        let tokens = value("--bearer").map(|t| t.split(',').map(str::to_string).collect());
        return remote::serve_http(&addr, tokens, value("--auth-server")).await;
    }
    if let Some(addr) = value("--legacy-sse") {
        return remote::serve_legacy_sse(&addr).await;
    }
    let service = TestServer::default()
        .serve(rmcp::transport::stdio())
        .await?;
    service.waiting().await?;
    Ok(())
}

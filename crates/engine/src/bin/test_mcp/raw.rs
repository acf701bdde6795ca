//! A hand-written stdio server (`--raw-tools`) that lists tools exactly as written here, JSON the typed server side
//! of `rmcp` would refuse to send: beside a good `echo`, a tool whose input schema is not an object and one whose
//! schema is not a valid JSON Schema. `echo` answers calls; the rest of the protocol is the minimum a client needs.

use std::io::{BufRead, Write};

use serde_json::{Value, json};

fn tools() -> Value {
    json!({"tools": [
        {"name": "echo", "description": "Returns the text it is given.",
            "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}},
        {"name": "no_schema", "description": "Its input schema is not an object.", "inputSchema": "anything"},
        {"name": "bad_schema", "description": "Its input schema is not a JSON Schema.",
            "inputSchema": {"type": "object", "properties": {"n": {"type": 5}}}},
    ]})
}

fn answer(request: &Value) -> Option<Value> {
    let id = request.get("id")?.clone();
    let result = match request.get("method").and_then(Value::as_str)? {
        "initialize" => json!({
            "protocolVersion": request.pointer("/params/protocolVersion").cloned().unwrap_or(json!("2025-06-18")),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "tandem-test-mcp-raw", "version": "1.0.0"}
        }),
        "tools/list" => tools(),
        "tools/call" => {
            let text = request
                .pointer("/params/arguments/text")
                .and_then(Value::as_str)
                .unwrap_or("");
            json!({"content": [{"type": "text", "text": text}]})
        }
        "ping" => json!({}),
        other => {
            return Some(json!({"jsonrpc": "2.0", "id": id,
                "error": {"code": -32601, "message": format!("no method {other}")}}));
        }
    };
    Some(json!({"jsonrpc": "2.0", "id": id, "result": result}))
}

/// Serves on stdin and stdout until stdin ends.
pub fn serve() -> std::io::Result<()> {
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout();
    for line in stdin.lock().lines() {
        let Ok(request) = serde_json::from_str::<Value>(&line?) else {
            continue;
        };
        if let Some(reply) = answer(&request) {
            writeln!(stdout, "{reply}")?;
            stdout.flush()?;
        }
    }
    Ok(())
}

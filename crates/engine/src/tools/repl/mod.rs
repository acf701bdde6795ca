//! REPL (behind `USER_TYPE=ant` with `CLAUDE_CODE_REPL`; docs/engine-doors.md): runs a JavaScript program with
//! `node` in which the primitive tools are async functions (`await Read({file_path})`); each function call runs
//! through the whole tool-call pipeline as its own call ([`crate::tool::InnerCalls`]), so it is checked, hooked and
//! shown like a direct one. The REPL call itself is judged as the bare tool (its program is not analysable).

mod child;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use schemars::JsonSchema;
use serde::Deserialize;
use tandem_protocol::{RenderHints, ToolKind};

use crate::tool::{DynTool, Tool, ToolContext, ToolError, ToolOutput, names};

/// The primitive tools the REPL wraps (hidden from the model's own list in the REPL mode).
pub const WRAPPED_TOOLS: &[&str] = &[
    names::READ,
    names::WRITE,
    names::EDIT,
    names::GLOB,
    names::GREP,
    names::BASH,
    names::NOTEBOOK_EDIT,
];

/// How long a program may run unless its call says otherwise.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(120);
/// The longest a program may run.
pub const MAX_TIMEOUT: Duration = Duration::from_secs(600);
/// The result (output and last value) is cut to this many characters.
pub const MAX_RESULT_CHARS: usize = 50_000;

/// The program to run.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReplInput {
    /// JavaScript (Node) to run; top-level `await` is allowed. The wrapped tools are async functions taking the
    /// tool's input object and returning its result text: `const text = await Read({file_path: "src/main.rs"})`.
    /// A tool's error or refusal throws an Error with its message. `console.log` is the output; the value of the
    /// last expression is returned too.
    pub code: String,
    /// Milliseconds the program may run (default 120000, at most 600000); it is killed after that.
    pub timeout: Option<u64>,
}

/// The REPL tool: `node` and the tools its functions call.
#[derive(Clone)]
pub struct ReplTool {
    node: PathBuf,
    wrapped: Vec<Arc<dyn DynTool>>,
}

impl std::fmt::Debug for ReplTool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReplTool")
            .field("node", &self.node)
            .field(
                "wrapped",
                &self.wrapped.iter().map(|t| t.name()).collect::<Vec<_>>(),
            )
            .finish()
    }
}

impl ReplTool {
    /// A REPL running `node` whose functions are `wrapped` (of the session's tools, those it finds in
    /// [`WRAPPED_TOOLS`]).
    pub fn new(node: PathBuf, tools: &[Arc<dyn DynTool>]) -> Self {
        let wrapped = tools
            .iter()
            .filter(|t| WRAPPED_TOOLS.contains(&t.name()))
            .cloned()
            .collect();
        Self { node, wrapped }
    }

    /// The names of the functions the program gets.
    pub fn functions(&self) -> Vec<&str> {
        self.wrapped.iter().map(|t| t.name()).collect()
    }

    fn signature(tool: &Arc<dyn DynTool>) -> String {
        let schema = tool.input_schema();
        let required: Vec<&str> = schema
            .get("required")
            .and_then(|r| r.as_array())
            .map(|r| r.iter().filter_map(|v| v.as_str()).collect())
            .unwrap_or_default();
        let params: Vec<String> = schema
            .get("properties")
            .and_then(|p| p.as_object())
            .map(|p| {
                p.keys()
                    .map(|k| {
                        if required.contains(&k.as_str()) {
                            k.clone()
                        } else {
                            format!("{k}?")
                        }
                    })
                    .collect()
            })
            .unwrap_or_default();
        let summary = tool.description();
        let summary = summary.lines().next().unwrap_or_default();
        format!(
            "- await {}({{{}}}): {summary}",
            tool.name(),
            params.join(", ")
        )
    }
}

/// Where `node` is on `path` (a `PATH` value), if it is installed.
pub fn find_node(path: Option<&std::ffi::OsStr>) -> Option<PathBuf> {
    crate::fsutil::find_program("node", path)
}

impl Tool for ReplTool {
    type Input = ReplInput;

    fn name(&self) -> &'static str {
        names::REPL
    }

    fn description(&self) -> String {
        let functions: Vec<String> = self.wrapped.iter().map(Self::signature).collect();
        format!(
            "Runs a JavaScript program (Node, top-level await allowed) in which the file, search and shell tools \
             are async functions. Each takes the tool's input object and returns its result text; a tool's error \
             or a refused permission throws an Error with the message. Each call is checked and run as if you had \
             made it directly. What the program prints with console.log is returned, with the value of its last \
             expression. Use it to chain several tool calls in one step.\n\nFunctions:\n{}",
            functions.join("\n")
        )
    }

    fn render_hints(&self, input: &ReplInput, _ctx: &ToolContext) -> RenderHints {
        let first = input.code.lines().next().unwrap_or_default();
        RenderHints {
            kind: ToolKind::Shell,
            title: format!("REPL {}", first.chars().take(80).collect::<String>()),
            collapsible: true,
        }
    }

    async fn validate_input(&self, input: &ReplInput, _ctx: &ToolContext) -> Result<(), String> {
        if input.code.trim().is_empty() {
            return Err("the program is empty".into());
        }
        if let Some(ms) = input.timeout
            && (ms == 0 || Duration::from_millis(ms) > MAX_TIMEOUT)
        {
            return Err(format!(
                "timeout must be between 1 and {} milliseconds",
                MAX_TIMEOUT.as_millis()
            ));
        }
        Ok(())
    }

    async fn call(&self, input: &ReplInput, ctx: &ToolContext) -> Result<ToolOutput, ToolError> {
        let Some(inner) = ctx.inner_calls.clone() else {
            return Err(ToolError::to_model(
                "REPL is not available here: its functions need a session to run in",
            ));
        };
        let timeout = input
            .timeout
            .map(Duration::from_millis)
            .unwrap_or(DEFAULT_TIMEOUT);
        let run = child::Run {
            node: &self.node,
            wrapped: &self.wrapped,
            inner,
            ctx,
            timeout,
        };
        run.run(&input.code).await.map(ToolOutput::text)
    }
}

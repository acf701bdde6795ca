//! The `LSP` tool: code intelligence from the session's language servers — goToDefinition, findReferences, hover,
//! documentSymbol, workspaceSymbol, goToImplementation, prepareCallHierarchy, incomingCalls, outgoingCalls — on a
//! file and a 1-based line and character as Read shows them. Read-only; the file is checked like Read's.

mod position;
mod render;

use std::path::Path;
use std::sync::Arc;

use lsp_types::request::{
    CallHierarchyIncomingCalls, CallHierarchyOutgoingCalls, CallHierarchyPrepare,
    DocumentSymbolRequest, GotoDefinition, GotoImplementation, HoverRequest, References,
    WorkspaceSymbolRequest,
};
use lsp_types::{
    CallHierarchyIncomingCallsParams, CallHierarchyItem, CallHierarchyOutgoingCallsParams,
    CallHierarchyPrepareParams, DocumentSymbolParams, GotoDefinitionParams, HoverParams,
    PartialResultParams, ReferenceContext, ReferenceParams, TextDocumentIdentifier,
    TextDocumentPositionParams, WorkDoneProgressParams, WorkspaceSymbolParams,
};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use tandem_protocol::{RenderHints, ToolKind};

use super::file_io::paths;
use super::read::backfill_path;
use crate::lsp::{FileHandle, LspError, LspManager};
use crate::permission::PermissionSubject;
use crate::tool::names;
use crate::tool::{InterruptBehavior, Tool, ToolContext, ToolError, ToolOutput};

/// What to ask the language server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum Operation {
    /// Where the symbol at the position is defined.
    GoToDefinition,
    /// Every reference to the symbol at the position.
    FindReferences,
    /// The type and documentation of the symbol at the position.
    Hover,
    /// The symbols (functions, classes, variables) of the file.
    DocumentSymbol,
    /// Symbols across the workspace whose name matches `query` (default: the word at the position).
    WorkspaceSymbol,
    /// The implementations of the interface or abstract method at the position.
    GoToImplementation,
    /// The call hierarchy item at the position.
    PrepareCallHierarchy,
    /// The functions that call the function at the position.
    IncomingCalls,
    /// The functions the function at the position calls.
    OutgoingCalls,
}

/// Asks the language server about a position in a file.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LspInput {
    /// The operation.
    pub operation: Operation,
    /// The file (absolute, or relative to the working directory).
    #[serde(rename = "filePath")]
    pub file_path: String,
    /// The line, 1-based, as Read numbers it.
    #[schemars(range(min = 1))]
    pub line: u32,
    /// The character on the line, 1-based.
    #[schemars(range(min = 1))]
    pub character: u32,
    /// For workspaceSymbol: the name to search for (default: the word at the position).
    pub query: Option<String>,
}

/// The `LSP` tool over the session's language servers.
#[derive(Debug)]
pub struct LspTool {
    manager: Arc<LspManager>,
}

impl LspTool {
    pub fn new(manager: Arc<LspManager>) -> Self {
        Self { manager }
    }
}

impl Tool for LspTool {
    type Input = LspInput;

    fn name(&self) -> &'static str {
        names::LSP
    }

    fn description(&self) -> String {
        let mut servers: Vec<String> = self
            .manager
            .configs()
            .map(|c| {
                let exts: Vec<&str> = c.extension_to_language.keys().map(String::as_str).collect();
                format!("{} ({})", c.name, exts.join(", "))
            })
            .collect();
        if servers.is_empty() {
            servers.push("none is configured yet (a project configures them in .lsp.json)".into());
        }
        format!(
            "Asks a language server about code: goToDefinition, findReferences, hover (type and documentation), \
             documentSymbol (the file's symbols), workspaceSymbol (symbols by name across the project; `query`), \
             goToImplementation, prepareCallHierarchy, incomingCalls (who calls the function at the position), \
             outgoingCalls (what it calls). Give the file and the 1-based line and character of the symbol as Read \
             shows them. Language servers: {}.",
            servers.join("; ")
        )
    }

    fn is_concurrency_safe(&self, _input: &LspInput) -> bool {
        true
    }

    fn is_read_only(&self, _input: &LspInput) -> bool {
        true
    }

    fn interrupt_behavior(&self) -> InterruptBehavior {
        InterruptBehavior::Cancel
    }

    fn render_hints(&self, input: &LspInput, ctx: &ToolContext) -> RenderHints {
        let path = paths::absolute(ctx, &input.file_path);
        let op = serde_json::to_value(input.operation)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        RenderHints {
            kind: ToolKind::Read,
            title: format!(
                "LSP {op} {}:{}:{}",
                paths::display(ctx, &path),
                input.line,
                input.character
            ),
            collapsible: true,
        }
    }

    fn permission_subject(&self, input: &LspInput, ctx: &ToolContext) -> PermissionSubject {
        PermissionSubject::ReadPath(paths::absolute(ctx, &input.file_path))
    }

    fn backfill_observable_input(&self, input: &mut serde_json::Value, ctx: &ToolContext) {
        backfill_path(input, "filePath", ctx);
    }

    async fn validate_input(&self, input: &LspInput, ctx: &ToolContext) -> Result<(), String> {
        let path = paths::readable(ctx, "filePath", &input.file_path)?;
        if !path.is_file() {
            return Err(format!("{} is not a file.", path.display()));
        }
        Ok(())
    }

    async fn call(&self, input: &LspInput, ctx: &ToolContext) -> Result<ToolOutput, ToolError> {
        let path = paths::absolute(ctx, &input.file_path);
        let text = tokio::fs::read(&path)
            .await
            .map_err(|e| ToolError::to_model(format!("{} cannot be read: {e}", path.display())))?;
        let text = String::from_utf8_lossy(&text).into_owned();
        let file = self
            .manager
            .open(&path, &text, &ctx.cancel)
            .await
            .map_err(to_model)?;
        let position = position::to_lsp(&text, input.line, input.character).ok_or_else(|| {
            ToolError::to_model(format!(
                "line {} does not exist in {} ({} lines)",
                input.line,
                paths::display(ctx, &path),
                text.lines().count()
            ))
        })?;
        // A place in a file the deny rules keep from Read is not named (its line and symbol may still show).
        let shown = |p: &Path| match &ctx.read_denied {
            Some(denied) if denied.denies(p) => HIDDEN_FILE.to_string(),
            _ => paths::display(ctx, p),
        };
        let answer = ask(&file, input, &text, position, ctx, &shown)
            .await
            .map_err(to_model)?;
        Ok(ToolOutput::text(answer))
    }
}

/// What a place in a file the deny rules hide from Read shows instead of the file's path.
pub const HIDDEN_FILE: &str = "(a file your deny rules hide)";

fn to_model(e: LspError) -> ToolError {
    match e {
        LspError::Cancelled => ToolError::Cancelled,
        e => ToolError::to_model(format!("{e}.")),
    }
}

async fn ask(
    file: &FileHandle,
    input: &LspInput,
    text: &str,
    position: lsp_types::Position,
    ctx: &ToolContext,
    shown: render::Shown<'_>,
) -> Result<String, LspError> {
    let cancel = &ctx.cancel;
    let doc = TextDocumentIdentifier::new(file.uri.clone());
    let at = TextDocumentPositionParams::new(doc.clone(), position);
    let work = WorkDoneProgressParams::default;
    let partial = PartialResultParams::default;
    Ok(match input.operation {
        Operation::GoToDefinition | Operation::GoToImplementation => {
            let params = GotoDefinitionParams {
                text_document_position_params: at,
                work_done_progress_params: work(),
                partial_result_params: partial(),
            };
            let answer = if input.operation == Operation::GoToDefinition {
                file.request::<GotoDefinition>(params, cancel).await?
            } else {
                file.request::<GotoImplementation>(params, cancel).await?
            };
            render::locations(answer, shown, "definition")
        }
        Operation::FindReferences => {
            let answer = file
                .request::<References>(
                    ReferenceParams {
                        text_document_position: at,
                        work_done_progress_params: work(),
                        partial_result_params: partial(),
                        context: ReferenceContext {
                            include_declaration: true,
                        },
                    },
                    cancel,
                )
                .await?;
            render::references(answer.unwrap_or_default(), shown)
        }
        Operation::Hover => {
            let answer = file
                .request::<HoverRequest>(
                    HoverParams {
                        text_document_position_params: at,
                        work_done_progress_params: work(),
                    },
                    cancel,
                )
                .await?;
            render::hover(answer)
        }
        Operation::DocumentSymbol => {
            let answer = file
                .request::<DocumentSymbolRequest>(
                    DocumentSymbolParams {
                        text_document: doc,
                        work_done_progress_params: work(),
                        partial_result_params: partial(),
                    },
                    cancel,
                )
                .await?;
            render::document_symbols(answer, shown)
        }
        Operation::WorkspaceSymbol => {
            let query = input
                .query
                .clone()
                .filter(|q| !q.trim().is_empty())
                .or_else(|| position::word_at(text, input.line, input.character))
                .unwrap_or_default();
            let answer = file
                .request::<WorkspaceSymbolRequest>(
                    WorkspaceSymbolParams {
                        query: query.clone(),
                        work_done_progress_params: work(),
                        partial_result_params: partial(),
                    },
                    cancel,
                )
                .await?;
            render::workspace_symbols(&query, answer, shown)
        }
        Operation::PrepareCallHierarchy | Operation::IncomingCalls | Operation::OutgoingCalls => {
            let items = file
                .request::<CallHierarchyPrepare>(
                    CallHierarchyPrepareParams {
                        text_document_position_params: at,
                        work_done_progress_params: work(),
                    },
                    cancel,
                )
                .await?
                .unwrap_or_default();
            match (input.operation, items.first()) {
                (Operation::PrepareCallHierarchy, _) => render::call_items(&items, shown),
                (_, None) => "No function or method at this position.".to_string(),
                (Operation::IncomingCalls, Some(item)) => {
                    let calls = file
                        .request::<CallHierarchyIncomingCalls>(
                            CallHierarchyIncomingCallsParams {
                                item: item.clone(),
                                work_done_progress_params: work(),
                                partial_result_params: partial(),
                            },
                            cancel,
                        )
                        .await?
                        .unwrap_or_default();
                    let found: Vec<(CallHierarchyItem, usize)> = calls
                        .into_iter()
                        .map(|c| (c.from, c.from_ranges.len()))
                        .collect();
                    render::calls(item, &found, true, shown)
                }
                (_, Some(item)) => {
                    let calls = file
                        .request::<CallHierarchyOutgoingCalls>(
                            CallHierarchyOutgoingCallsParams {
                                item: item.clone(),
                                work_done_progress_params: work(),
                                partial_result_params: partial(),
                            },
                            cancel,
                        )
                        .await?
                        .unwrap_or_default();
                    let found: Vec<(CallHierarchyItem, usize)> = calls
                        .into_iter()
                        .map(|c| (c.to, c.from_ranges.len()))
                        .collect();
                    render::calls(item, &found, false, shown)
                }
            }
        }
    })
}

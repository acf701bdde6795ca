//! The NotebookEdit tool: replaces, inserts or deletes one cell of a Jupyter notebook, found by id or index. The
//! rest of the notebook's JSON is kept as it was (key order, indentation, final newline); the write is atomic and
//! follows the same read-before and unchanged-since checks as Edit.

use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use tandem_protocol::{FileDiff, NotebookCellChange, RenderHints, ToolDetail, ToolKind};

use crate::permission::PermissionSubject;
use crate::tool::names;
use crate::tool::{InterruptBehavior, Tool, ToolContext, ToolError, ToolOutput};
use crate::tools::file_io::{change, notebook_cells, patch, paths, preview};
use crate::tools::read::backfill_path;

/// The kind of a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum CellType {
    Code,
    Markdown,
}

/// What to do with the cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum EditMode {
    #[default]
    Replace,
    Insert,
    Delete,
}

/// Replaces, inserts or deletes a cell of a Jupyter notebook.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NotebookEditInput {
    /// The absolute path of the notebook (.ipynb).
    pub notebook_path: String,
    /// The cell to change: its id, or `cell-N` / `N` for the cell at index N (0-based). With insert, the new cell
    /// goes after this one (at the start when omitted).
    pub cell_id: Option<String>,
    /// The new source of the cell (ignored for delete).
    #[serde(default)]
    pub new_source: String,
    /// The type of the cell; required for insert, optional for replace (keeps the cell's type).
    pub cell_type: Option<CellType>,
    /// replace (default), insert or delete.
    #[serde(default)]
    pub edit_mode: EditMode,
}

/// The NotebookEdit tool.
#[derive(Debug, Default)]
pub struct NotebookEditTool;

fn to_model(m: impl Into<String>) -> ToolError {
    ToolError::to_model(m)
}

/// The indentation unit of a JSON text (from its second line), as serde_json needs it.
fn indent_of(text: &str) -> Vec<u8> {
    text.lines()
        .nth(1)
        .map(|l| {
            l.bytes()
                .take_while(|b| *b == b' ' || *b == b'\t')
                .collect::<Vec<u8>>()
        })
        .filter(|i| !i.is_empty())
        .unwrap_or_else(|| b" ".to_vec())
}

fn serialise(nb: &Value, indent: &[u8], final_newline: bool) -> Result<Vec<u8>, ToolError> {
    let mut out = Vec::new();
    let fmt = serde_json::ser::PrettyFormatter::with_indent(indent);
    let mut ser = serde_json::Serializer::with_formatter(&mut out, fmt);
    nb.serialize(&mut ser)
        .map_err(|e| to_model(format!("the notebook could not be written: {e}")))?;
    if final_newline {
        out.push(b'\n');
    }
    Ok(out)
}

fn set_source(cell: &mut Map<String, Value>, source: &str) {
    let as_list = !matches!(cell.get("source"), Some(Value::String(_)));
    let value = if as_list {
        notebook_cells::split_lines(source)
    } else {
        Value::String(source.to_string())
    };
    cell.insert("source".into(), value);
}

fn set_type(cell: &mut Map<String, Value>, kind: CellType) {
    match kind {
        CellType::Code => {
            cell.insert("cell_type".into(), "code".into());
            cell.insert("execution_count".into(), Value::Null);
            cell.insert("outputs".into(), Value::Array(Vec::new()));
        }
        CellType::Markdown => {
            cell.insert("cell_type".into(), "markdown".into());
            cell.remove("execution_count");
            cell.remove("outputs");
        }
    }
}

/// Applies the edit to the notebook value; returns a summary for the model.
fn apply(nb: &mut Value, input: &NotebookEditInput) -> Result<String, ToolError> {
    let with_ids = {
        let major = nb.get("nbformat").and_then(Value::as_u64).unwrap_or(4);
        let minor = nb
            .get("nbformat_minor")
            .and_then(Value::as_u64)
            .unwrap_or(0);
        major > 4 || (major == 4 && minor >= 5)
    };
    let cells = nb
        .get_mut("cells")
        .and_then(Value::as_array_mut)
        .ok_or_else(|| to_model("The file is not a notebook: it has no cells list."))?;
    let find = |cells: &[Value], id: &str| {
        notebook_cells::find_cell(cells, id).ok_or_else(|| {
            to_model(format!(
                "Cell `{id}` was not found; the notebook has {} cells.",
                cells.len()
            ))
        })
    };
    match input.edit_mode {
        EditMode::Delete => {
            let id = input
                .cell_id
                .as_deref()
                .ok_or_else(|| to_model("cell_id is required to delete a cell."))?;
            let index = find(cells, id)?;
            cells.remove(index);
            Ok(format!("Deleted cell {id}."))
        }
        EditMode::Insert => {
            let kind = input
                .cell_type
                .ok_or_else(|| to_model("cell_type is required to insert a cell."))?;
            let index = match input.cell_id.as_deref() {
                Some(id) => find(cells, id)? + 1,
                None => 0,
            };
            let new_id = format!("{:08x}", rand::random::<u32>());
            let mut cell = Map::new();
            cell.insert("cell_type".into(), Value::Null);
            if kind == CellType::Code {
                cell.insert("execution_count".into(), Value::Null);
            }
            if with_ids {
                cell.insert("id".into(), new_id.clone().into());
            }
            cell.insert("metadata".into(), Value::Object(Map::new()));
            if kind == CellType::Code {
                cell.insert("outputs".into(), Value::Array(Vec::new()));
            }
            cell.insert("source".into(), Value::Array(Vec::new()));
            set_type(&mut cell, kind);
            set_source(&mut cell, &input.new_source);
            cells.insert(index, Value::Object(cell));
            let shown = if with_ids {
                new_id
            } else {
                format!("cell-{index}")
            };
            Ok(format!("Inserted cell {shown} at index {index}."))
        }
        EditMode::Replace => {
            let id = input
                .cell_id
                .as_deref()
                .ok_or_else(|| to_model("cell_id is required to replace a cell."))?;
            let index = find(cells, id)?;
            let cell = cells[index]
                .as_object_mut()
                .ok_or_else(|| to_model(format!("Cell {id} is not a JSON object.")))?;
            let kind = match input.cell_type {
                Some(kind) => kind,
                None if cell.get("cell_type").and_then(Value::as_str) == Some("markdown") => {
                    CellType::Markdown
                }
                None => CellType::Code,
            };
            let was = cell
                .get("cell_type")
                .and_then(Value::as_str)
                .map(str::to_string);
            if kind == CellType::Code || was.as_deref() != Some("markdown") {
                set_type(cell, kind);
            }
            set_source(cell, &input.new_source);
            Ok(format!("Updated cell {id}."))
        }
    }
}

/// Loads the notebook, runs every check and computes its new bytes, without writing.
fn prepare(
    input: &NotebookEditInput,
    ctx: &ToolContext,
    key: &Path,
) -> Result<(change::Current, Vec<u8>, String), ToolError> {
    let store = &ctx.file_state;
    let current = change::load(key)?;
    let Some(bytes) = current.bytes.as_deref() else {
        return Err(to_model(format!(
            "Notebook does not exist: {}",
            key.display()
        )));
    };
    change::ensure_writable(&current)?;
    change::ensure_fresh(store, &current)?;
    let text =
        std::str::from_utf8(bytes).map_err(|_| to_model("The notebook is not valid UTF-8."))?;
    let mut nb: Value = serde_json::from_str(text)
        .map_err(|e| to_model(format!("The notebook is not valid JSON: {e}")))?;
    let summary = apply(&mut nb, input)?;
    let out = serialise(&nb, &indent_of(text), text.ends_with('\n'))?;
    Ok((current, out, summary))
}

fn run(input: &NotebookEditInput, ctx: &ToolContext, key: &Path) -> Result<ToolOutput, ToolError> {
    let _guard = ctx.file_state.write_guard();
    let mut lock = change::lock(key)?;
    let (current, out, summary) = prepare(input, ctx, key)?;
    change::commit(&ctx.file_state, &mut lock, &current, &[&out])?;
    drop(lock);
    let texts = std::str::from_utf8(current.bytes.as_deref().unwrap_or_default())
        .ok()
        .zip(std::str::from_utf8(&out).ok());
    Ok(
        ToolOutput::text(summary.clone()).with_detail(ToolDetail::FileChange {
            path: key.display().to_string(),
            created: false,
            replacements: None,
            hunks: texts.map_or_else(Vec::new, |(old, new)| patch::hunks_of(old, new, 0)),
            diff: texts.and_then(|(old, new)| preview::file_diff(key, old, new, false)),
            cell: Some(NotebookCellChange {
                cell_id: input.cell_id.clone(),
                summary,
            }),
            changed_by: None,
            revised: None,
            diagnostics: None,
        }),
    )
}

fn precheck(input: &NotebookEditInput, ctx: &ToolContext) -> Result<PathBuf, String> {
    if paths::is_unc(&input.notebook_path) {
        return Err(format!(
            "{} is a UNC (network) path; Tandem does not touch network paths.",
            input.notebook_path
        ));
    }
    let key = paths::absolute(ctx, &input.notebook_path);
    if !key
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("ipynb"))
    {
        return Err("File must be a Jupyter notebook (.ipynb). Use Edit for other files.".into());
    }
    if input.edit_mode == EditMode::Insert && input.cell_type.is_none() {
        return Err("cell_type is required to insert a cell.".into());
    }
    Ok(key)
}

impl Tool for NotebookEditTool {
    type Input = NotebookEditInput;

    fn name(&self) -> &'static str {
        names::NOTEBOOK_EDIT
    }

    fn description(&self) -> String {
        "Replaces, inserts or deletes one cell of a Jupyter notebook (.ipynb). Name the cell by its id (as Read \
         shows it) or as cell-N for the cell at index N. insert puts the new cell after cell_id (at the start \
         without one) and needs cell_type. Read the notebook first."
            .to_string()
    }

    fn is_destructive(&self, input: &NotebookEditInput) -> bool {
        input.edit_mode != EditMode::Insert
    }

    fn interrupt_behavior(&self) -> InterruptBehavior {
        InterruptBehavior::Block
    }

    fn render_hints(&self, input: &NotebookEditInput, ctx: &ToolContext) -> RenderHints {
        let path = paths::absolute(ctx, &input.notebook_path);
        RenderHints {
            kind: ToolKind::Edit,
            title: format!("Edit notebook {}", paths::display(ctx, &path)),
            collapsible: false,
        }
    }

    fn permission_subject(
        &self,
        input: &NotebookEditInput,
        ctx: &ToolContext,
    ) -> PermissionSubject {
        PermissionSubject::WritePath(paths::absolute(ctx, &input.notebook_path))
    }

    fn backfill_observable_input(&self, input: &mut serde_json::Value, ctx: &ToolContext) {
        backfill_path(input, "notebook_path", ctx);
    }

    fn approval_preview(&self, input: &NotebookEditInput, ctx: &ToolContext) -> Option<FileDiff> {
        let key = precheck(input, ctx).ok()?;
        let (current, out, _) = prepare(input, ctx, &key).ok()?;
        let old = std::str::from_utf8(current.bytes.as_deref()?).ok()?;
        preview::file_diff(&key, old, std::str::from_utf8(&out).ok()?, false)
    }

    async fn validate_input(
        &self,
        input: &NotebookEditInput,
        ctx: &ToolContext,
    ) -> Result<(), String> {
        let key = precheck(input, ctx)?;
        let ctx = ctx.clone();
        let input = input.clone();
        tokio::task::spawn_blocking(move || prepare(&input, &ctx, &key).map(|_| ()))
            .await
            .map_err(|e| e.to_string())?
            .map_err(|e| e.to_string())
    }

    async fn call(
        &self,
        input: &NotebookEditInput,
        ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let key = precheck(input, ctx).map_err(ToolError::to_model)?;
        let ctx = ctx.clone();
        let input = input.clone();
        tokio::task::spawn_blocking(move || run(&input, &ctx, &key))
            .await
            .map_err(|e| ToolError::to_model(format!("the notebook edit failed: {e}")))?
    }
}

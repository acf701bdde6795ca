//! The parts of the Jupyter notebook format (nbformat 4) that Read and NotebookEdit need: cell sources, cell ids
//! (a cell without an id is called `cell-N` after its index) and finding a cell by id or index.

use serde_json::Value;

/// The text of a `source` (or output `text`) field, which nbformat allows as a string or a list of lines.
pub fn joined(value: Option<&Value>) -> String {
    match value {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts.iter().filter_map(Value::as_str).collect(),
        _ => String::new(),
    }
}

/// The id of the cell at `index`: its `id` field, or `cell-<index>` when it has none.
pub fn cell_id(cell: &Value, index: usize) -> String {
    cell.get("id")
        .and_then(Value::as_str)
        .map(str::to_string)
        .unwrap_or_else(|| format!("cell-{index}"))
}

/// The index of the cell named `id`: its `id`, a `cell-N` name, or a bare index.
pub fn find_cell(cells: &[Value], id: &str) -> Option<usize> {
    if let Some(i) = cells
        .iter()
        .enumerate()
        .position(|(i, c)| cell_id(c, i) == id)
    {
        return Some(i);
    }
    let n = id
        .strip_prefix("cell-")
        .unwrap_or(id)
        .parse::<usize>()
        .ok()?;
    (n < cells.len()).then_some(n)
}

/// Splits text into nbformat's list-of-lines form (each line keeps its `\n`).
pub fn split_lines(text: &str) -> Value {
    Value::Array(
        text.split_inclusive('\n')
            .map(|l| Value::String(l.to_string()))
            .collect(),
    )
}

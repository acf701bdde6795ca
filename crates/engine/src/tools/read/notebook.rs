//! Jupyter notebooks for Read: every cell with its id, type and source, then its outputs (text, results, errors;
//! PNG and JPEG outputs as image blocks).

use std::path::Path;

use serde_json::Value;

use tandem_protocol::{ReadContent, ToolDetail};

use crate::model::{ImageSource, ResultBlock, ToolResultContent};
use crate::tool::{ToolError, ToolOutput};
use crate::tools::file_io::notebook_cells::{cell_id, joined};

/// Output text longer than this is cut.
const MAX_OUTPUT_CHARS: usize = 10_000;

fn cut(text: String) -> String {
    match text.char_indices().nth(MAX_OUTPUT_CHARS) {
        Some((i, _)) => format!("{}… [output truncated]", &text[..i]),
        None => text,
    }
}

fn render_output(output: &Value, text: &mut String, images: &mut Vec<ResultBlock>) {
    match output.get("output_type").and_then(Value::as_str) {
        Some("stream") => text.push_str(&cut(joined(output.get("text")))),
        Some("execute_result" | "display_data") => {
            let data = output.get("data");
            for (mime, media) in [("image/png", "image/png"), ("image/jpeg", "image/jpeg")] {
                if let Some(b64) = data.and_then(|d| d.get(mime)) {
                    let b64: String = joined(Some(b64)).split_whitespace().collect();
                    images.push(ResultBlock::Image {
                        source: ImageSource::Base64 {
                            media_type: media.into(),
                            data: b64,
                        },
                    });
                    text.push_str(&format!("[{mime} output]\n"));
                }
            }
            if let Some(plain) = data.and_then(|d| d.get("text/plain")) {
                text.push_str(&cut(joined(Some(plain))));
            }
        }
        Some("error") => {
            let name = output
                .get("ename")
                .and_then(Value::as_str)
                .unwrap_or("Error");
            let value = output.get("evalue").and_then(Value::as_str).unwrap_or("");
            text.push_str(&format!("{name}: {value}"));
        }
        _ => {}
    }
    if !text.ends_with('\n') {
        text.push('\n');
    }
}

/// Renders a notebook's `bytes` for the model.
pub fn read_notebook(path: &Path, bytes: &[u8]) -> Result<ToolOutput, ToolError> {
    let nb: Value = serde_json::from_slice(bytes).map_err(|e| {
        ToolError::to_model(format!("{} is not a valid notebook: {e}", path.display()))
    })?;
    let cells = nb.get("cells").and_then(Value::as_array).ok_or_else(|| {
        ToolError::to_model(format!(
            "{} is not a notebook: it has no cells",
            path.display()
        ))
    })?;
    let language = nb
        .pointer("/metadata/language_info/name")
        .and_then(Value::as_str)
        .unwrap_or("python");
    let mut text = String::new();
    let mut images = Vec::new();
    for (index, cell) in cells.iter().enumerate() {
        let id = cell_id(cell, index);
        let kind = cell
            .get("cell_type")
            .and_then(Value::as_str)
            .unwrap_or("code");
        let source = joined(cell.get("source"));
        text.push_str(&format!(
            "<cell id=\"{id}\" index=\"{index}\" type=\"{kind}\""
        ));
        if kind == "code" {
            text.push_str(&format!(" language=\"{language}\""));
        }
        text.push_str(">\n");
        text.push_str(&source);
        if !source.ends_with('\n') {
            text.push('\n');
        }
        text.push_str("</cell>\n");
        let outputs = cell
            .get("outputs")
            .and_then(Value::as_array)
            .filter(|o| !o.is_empty());
        if let Some(outputs) = outputs {
            text.push_str(&format!("<outputs cell=\"{id}\">\n"));
            for output in outputs {
                render_output(output, &mut text, &mut images);
            }
            text.push_str("</outputs>\n");
        }
    }
    let detail = ToolDetail::Read {
        path: path.display().to_string(),
        content: ReadContent::Notebook {
            cells: u32::try_from(cells.len()).unwrap_or(u32::MAX),
        },
    };
    let content = if images.is_empty() {
        ToolResultContent::Text(text)
    } else {
        let mut blocks = vec![ResultBlock::Text { text }];
        blocks.extend(images);
        ToolResultContent::Blocks(blocks)
    };
    Ok(ToolOutput {
        content,
        detail: Some(detail),
        context_change: None,
        new_messages: Vec::new(),
        structured: None,
    })
}

//! Keeps tool results within what the model should read: a result longer than its tool's limit, and then the
//! largest results until one message's results fit in [`MESSAGE_BUDGET_CHARS`], are written to the session's
//! `tool-results/` folder and replaced by a `<persisted-output>` block with the path and a preview.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::model::{ContentBlock, ResultBlock, ToolResultContent};

/// The most characters the results of one message may hold in total.
pub const MESSAGE_BUDGET_CHARS: usize = 200_000;
/// Bytes of a persisted result shown to the model.
pub const PREVIEW_BYTES: usize = 2_000;

/// The text of a result (images do not count).
fn text_of(content: &ToolResultContent) -> String {
    match content {
        ToolResultContent::Text(t) => t.clone(),
        ToolResultContent::Blocks(blocks) => blocks
            .iter()
            .filter_map(|b| match b {
                ResultBlock::Text { text } => Some(text.as_str()),
                ResultBlock::Image { .. } => None,
            })
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

/// The first [`PREVIEW_BYTES`] of `text`, cut at the last line end inside them (or at a char boundary when the
/// first line is longer).
pub fn preview(text: &str) -> &str {
    if text.len() <= PREVIEW_BYTES {
        return text;
    }
    let mut end = PREVIEW_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    match text[..end].rfind('\n') {
        Some(newline) if newline > 0 => &text[..=newline],
        _ => &text[..end],
    }
}

/// Writes `text` to `dir/<id>.txt` atomically (temp file, fsync, rename) and returns the path.
fn persist(dir: &Path, id: &str, text: &str) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let safe: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let path = dir.join(format!("{safe}.txt"));
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(text.as_bytes())?;
    tmp.as_file().sync_all()?;
    tmp.persist(&path).map_err(|e| e.error)?;
    Ok(path)
}

fn persisted_block(path: &Path, text: &str) -> String {
    format!(
        "<persisted-output>\nOutput too large ({} characters). Full output saved to: {}\n\nPreview (first {} bytes):\n{}\n</persisted-output>",
        text.chars().count(),
        path.display(),
        PREVIEW_BYTES,
        preview(text)
    )
}

/// Applies the limits to one message's results. `limit_of` gives the tool's `max_result_size_chars` for a
/// tool_use id (`usize::MAX`: never saved to a file, not even to fit the message budget). A result that cannot be written keeps its text cut to the preview, with a note.
pub fn enforce(results: &mut [ContentBlock], limit_of: impl Fn(&str) -> usize, dir: &Path) {
    let mut sizes: Vec<(usize, usize, bool)> = Vec::new(); // (index, chars, persisted)
    for (i, block) in results.iter_mut().enumerate() {
        if let ContentBlock::ToolResult {
            tool_use_id,
            content,
            ..
        } = block
        {
            let text = text_of(content);
            let chars = text.chars().count();
            let limit = limit_of(tool_use_id);
            if chars > limit {
                *content = ToolResultContent::Text(spill(dir, tool_use_id, &text));
                sizes.push((i, text_of(content).chars().count(), true));
            } else {
                // A tool without a limit (Read) bounds itself and is never saved to a file.
                sizes.push((i, chars, limit == usize::MAX));
            }
        }
    }
    let mut total: usize = sizes.iter().map(|s| s.1).sum();
    while total > MESSAGE_BUDGET_CHARS {
        let Some(largest) = sizes.iter_mut().filter(|s| !s.2).max_by_key(|s| s.1) else {
            break;
        };
        if let ContentBlock::ToolResult {
            tool_use_id,
            content,
            ..
        } = &mut results[largest.0]
        {
            let text = text_of(content);
            *content = ToolResultContent::Text(spill(dir, tool_use_id, &text));
            let now = text_of(content).chars().count();
            total = total - largest.1 + now;
            *largest = (largest.0, now, true);
        }
    }
}

fn spill(dir: &Path, id: &str, text: &str) -> String {
    match persist(dir, id, text) {
        Ok(path) => persisted_block(&path, text),
        Err(e) => format!(
            "{}\n[output cut: {} characters in all; it could not be saved to {}: {e}]",
            preview(text),
            text.chars().count(),
            dir.display()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(id: &str, text: String) -> ContentBlock {
        ContentBlock::ToolResult {
            tool_use_id: id.into(),
            content: ToolResultContent::Text(text),
            is_error: false,
        }
    }

    fn text(block: &ContentBlock) -> String {
        match block {
            ContentBlock::ToolResult { content, .. } => text_of(content),
            _ => String::new(),
        }
    }

    #[test]
    fn a_result_over_its_tools_limit_is_persisted_with_a_preview_cut_at_a_line_end() {
        let dir = tempfile::tempdir().expect("tempdir");
        let long: String = (0..500)
            .map(|i| format!("line {i:04} of the output\n"))
            .collect();
        let mut results = vec![
            result("toolu_big", long.clone()),
            result("toolu_small", "small".into()),
        ];
        enforce(&mut results, |_| 1_000, dir.path());
        let shown = text(&results[0]);
        assert!(
            shown.starts_with("<persisted-output>") && shown.ends_with("</persisted-output>"),
            "{shown}"
        );
        let saved = dir.path().join("toolu_big.txt");
        assert!(shown.contains(&saved.display().to_string()));
        assert_eq!(std::fs::read_to_string(&saved).expect("saved"), long);
        let preview_part = shown.split("bytes):\n").nth(1).expect("preview");
        assert!(preview_part.starts_with("line 0000"));
        let body = preview_part.trim_end_matches("\n</persisted-output>");
        assert!(
            body.len() <= PREVIEW_BYTES && body.ends_with('\n'),
            "{}",
            body.len()
        );
        assert_eq!(text(&results[1]), "small");
    }

    #[test]
    fn the_message_budget_persists_the_largest_results_first() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut results = vec![
            result("a", "a".repeat(90_000)),
            result("b", "b".repeat(150_000)),
            result("c", "c".repeat(60_000)),
        ];
        enforce(&mut results, |_| 1_000_000, dir.path());
        assert!(
            text(&results[1]).starts_with("<persisted-output>"),
            "the largest goes first"
        );
        assert_eq!(text(&results[0]).len(), 90_000, "then the rest fits");
        assert_eq!(text(&results[2]).len(), 60_000);
    }

    #[test]
    fn a_result_without_a_limit_is_never_saved_even_over_the_budget() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut results = vec![
            result("read", "r".repeat(150_000)),
            result("other", "o".repeat(90_000)),
        ];
        enforce(
            &mut results,
            |id| if id == "read" { usize::MAX } else { 1_000_000 },
            dir.path(),
        );
        assert_eq!(text(&results[0]).len(), 150_000);
        assert!(text(&results[1]).starts_with("<persisted-output>"));
    }

    #[test]
    fn preview_respects_char_boundaries() {
        let s = "é".repeat(3_000);
        let p = preview(&s);
        assert!(p.len() <= PREVIEW_BYTES && p.chars().all(|c| c == 'é'));
    }
}

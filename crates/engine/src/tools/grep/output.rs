//! Formatting Grep's results for the model, in ripgrep's shapes: `path:line:text` (context lines `path-line-text`,
//! gaps `--`), `path:count`, or a list of files (newest first), then `offset` and `head_limit` applied.

use std::path::Path;
use std::time::SystemTime;

use super::search::{FileHits, Line};

/// Lines longer than this are cut in content output.
const MAX_COLUMNS: usize = 500;

/// The page of results the model asked for.
#[derive(Debug, Clone, Copy)]
pub struct Page {
    pub offset: usize,
    /// `None`: everything.
    pub limit: Option<usize>,
}

impl Page {
    /// Applies the page to `items`; returns the kept items and whether more were left out after them.
    pub fn apply<T>(&self, items: Vec<T>) -> (Vec<T>, bool) {
        let total = items.len();
        let kept: Vec<T> = items
            .into_iter()
            .skip(self.offset)
            .take(self.limit.unwrap_or(usize::MAX))
            .collect();
        let more = self.offset + kept.len() < total;
        (kept, more)
    }
}

fn cut(text: &str) -> String {
    match text.char_indices().nth(MAX_COLUMNS) {
        Some((i, _)) => format!("{}… [line cut at {MAX_COLUMNS} characters]", &text[..i]),
        None => text.to_string(),
    }
}

/// Content lines for the files (already in output order).
pub fn content_lines(
    files: &[FileHits],
    show: impl Fn(&Path) -> String,
    numbers: bool,
    context: bool,
) -> Vec<String> {
    let mut out = Vec::new();
    for (i, file) in files.iter().enumerate() {
        if context && i > 0 {
            out.push("--".to_string());
        }
        let name = show(&file.path);
        for line in &file.lines {
            out.push(match line {
                Line::Match { number, text } if numbers => format!("{name}:{number}:{}", cut(text)),
                Line::Match { text, .. } => format!("{name}:{}", cut(text)),
                Line::Context { number, text } if numbers => {
                    format!("{name}-{number}-{}", cut(text))
                }
                Line::Context { text, .. } => format!("{name}-{}", cut(text)),
                Line::Break => "--".to_string(),
            });
        }
    }
    out
}

/// The files sorted newest first (then by path), as the files_with_matches mode lists them.
pub fn by_mtime(files: &mut [FileHits]) {
    files.sort_by(|a, b| {
        let (ta, tb) = (mtime(a), mtime(b));
        tb.cmp(&ta).then_with(|| a.path.cmp(&b.path))
    });
}

fn mtime(file: &FileHits) -> SystemTime {
    file.modified.unwrap_or(SystemTime::UNIX_EPOCH)
}

//! A stored session exported by its id: loaded from the store, rendered in a format and, when asked, written to a
//! file whole (a temporary file renamed over the target). The command line and the window both export this way.

use std::path::{Path, PathBuf};

use super::export::{Format, export};
use crate::fsutil::write_atomic;
use crate::store::{SessionStore, StoreError};

/// Why a session could not be exported.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("no session with id {0}")]
    UnknownSession(String),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("{path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// The stored session `id` as text in `format`, with its title (empty before its first prompt).
pub fn export_stored(
    store: &SessionStore,
    id: &str,
    format: Format,
) -> Result<(String, String), ExportError> {
    let loaded = store
        .load_session(id)?
        .ok_or_else(|| ExportError::UnknownSession(id.to_owned()))?;
    let times = store.message_times(id)?;
    Ok((export(&loaded, &times, format), loaded.record.title.clone()))
}

/// Writes `text` to `path` whole: a reader sees the old file or the new one, never half of one.
pub fn write_export(path: &Path, text: &str) -> Result<(), ExportError> {
    write_atomic(path, &[text.as_bytes()], None).map_err(|source| ExportError::Write {
        path: path.to_path_buf(),
        source,
    })
}

/// A file name for an export of a session titled `title`: the title's letters, digits, spaces, dashes and
/// underscores (at most 60 characters; `session` when none are left) and the format's extension.
pub fn export_file_name(title: &str, format: Format) -> String {
    let kept: String = title
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                ' '
            }
        })
        .collect();
    let words: Vec<&str> = kept.split_whitespace().collect();
    let mut stem: String = words.join(" ").chars().take(60).collect();
    stem = stem.trim().to_owned();
    if stem.is_empty() {
        stem = "session".to_owned();
    }
    format!("{stem}.{}", format.extension())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_keep_the_titles_words_and_take_the_formats_extension() {
        let table = [
            (
                "Fix the login bug",
                Format::Markdown,
                "Fix the login bug.md",
            ),
            ("../../etc/passwd", Format::Html, "etc passwd.html"),
            (
                "a/b\\c:d*e?f\"g<h>i|j",
                Format::Jsonl,
                "a b c d e f g h i j.jsonl",
            ),
            ("", Format::Markdown, "session.md"),
            ("...", Format::Html, "session.html"),
            ("naïve café — 日本", Format::Markdown, "naïve café 日本.md"),
        ];
        for (title, format, want) in table {
            assert_eq!(export_file_name(title, format), want, "{title:?}");
        }
        let long = "x".repeat(200);
        assert_eq!(
            export_file_name(&long, Format::Jsonl).len(),
            60 + ".jsonl".len()
        );
    }
}

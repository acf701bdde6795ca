//! Text files for Read: decoded (UTF-8, UTF-8 with BOM, UTF-16LE; other bytes shown with replacement characters),
//! numbered like `cat -n`, from `offset` for `limit` lines, long lines cut, the whole output capped.

use std::path::Path;

use tandem_protocol::{ReadContent, ToolDetail};

use crate::tool::{ToolError, ToolOutput};
use crate::tools::file_io::encoding::{self, DecodeError};

/// Lines returned when no limit is given.
pub const DEFAULT_LINE_LIMIT: usize = 2000;
/// Longer lines are cut to this many characters.
pub const MAX_LINE_CHARS: usize = 2000;
/// The numbered output stops after this many bytes; the model reads on with `offset`.
const MAX_OUTPUT_BYTES: usize = 256 * 1024;

/// Formats lines as `cat -n` does: right-aligned numbers, a tab, the line (its `\r` dropped, cut when too long).
/// Returns the text and the number of lines shown.
pub fn number_lines(text: &str, first_line: usize, limit: usize) -> (String, usize) {
    let mut out = String::new();
    let mut count = 0;
    for (i, line) in text
        .lines()
        .enumerate()
        .skip(first_line.saturating_sub(1))
        .take(limit)
    {
        if out.len() > MAX_OUTPUT_BYTES {
            break;
        }
        let line = line.strip_suffix('\r').unwrap_or(line);
        out.push_str(&format!("{:>6}\t", i + 1));
        match line.char_indices().nth(MAX_LINE_CHARS) {
            Some((cut, _)) => {
                out.push_str(&line[..cut]);
                out.push_str("… [line truncated]");
            }
            None => out.push_str(line),
        }
        out.push('\n');
        count += 1;
    }
    (out, count)
}

fn line_count(text: &str) -> usize {
    let newlines = memchr::memchr_iter(b'\n', text.as_bytes()).count();
    if text.is_empty() || text.ends_with('\n') {
        newlines
    } else {
        newlines + 1
    }
}

/// Reads a text file's `bytes`; returns the output and whether only part of the file was shown.
pub fn read_text(
    path: &Path,
    bytes: &[u8],
    offset: Option<u64>,
    limit: Option<u64>,
) -> Result<(ToolOutput, bool), ToolError> {
    let mut note = String::new();
    let text = match encoding::decode(bytes.to_vec()) {
        Ok(file) => file.text,
        Err(DecodeError::Binary) => {
            return Err(ToolError::to_model(format!(
                "{} is a binary file (it contains NUL bytes); this tool cannot read binary files.",
                path.display()
            )));
        }
        Err(
            e @ (DecodeError::InvalidUtf8(_) | DecodeError::InvalidUtf16 | DecodeError::Utf16Be),
        ) => {
            note = format!(
                "<system-reminder>The file is not valid text ({e}); bytes that are not UTF-8 are shown as �. \
                 It cannot be edited with Edit.</system-reminder>\n"
            );
            String::from_utf8_lossy(bytes).into_owned()
        }
    };
    let first = offset.unwrap_or(1).max(1) as usize;
    let limit = limit.map(|l| l as usize).unwrap_or(DEFAULT_LINE_LIMIT);
    let (numbered, count) = number_lines(&text, first, limit);
    let total = line_count(&text);
    let partial = first > 1 || first + count <= total;
    let mut content = if total == 0 {
        "<system-reminder>The file exists but is empty.</system-reminder>".to_string()
    } else if count == 0 {
        format!(
            "<system-reminder>The file has {total} lines; offset {first} is past its end.</system-reminder>"
        )
    } else {
        numbered
    };
    if count > 0 && first + count <= total {
        content.push_str(&format!(
            "<system-reminder>Showing lines {first}-{} of {total}. Use offset and limit to read more.</system-reminder>\n",
            first + count - 1
        ));
    }
    content.insert_str(0, &note);
    let out = ToolOutput::text(content).with_detail(ToolDetail::Read {
        path: path.display().to_string(),
        content: ReadContent::Text {
            start_line: first as u64,
            lines: count as u64,
            total_lines: total as u64,
        },
    });
    Ok((out, partial))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_cuts() {
        let (out, n) = number_lines("a\r\nb\nc", 2, 5);
        assert_eq!(out, "     2\tb\n     3\tc\n");
        assert_eq!(n, 2);
        let long = "x".repeat(MAX_LINE_CHARS + 5);
        let (out, _) = number_lines(&long, 1, 1);
        assert!(out.ends_with("… [line truncated]\n"));
        assert_eq!(line_count("a\nb\n"), 2);
        assert_eq!(line_count("a\nb"), 2);
    }
}

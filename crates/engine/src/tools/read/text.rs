//! Text files for Read: decoded (UTF-8, UTF-8 with BOM, UTF-16LE; other bytes shown with replacement characters),
//! numbered like `cat -n`, from `offset` for `limit` lines, long lines cut, the whole output capped. UTF-8 files are
//! streamed: a file of up to `FULL_SCAN_BYTES` is read to its end (its lines counted, its bytes hashed for the read
//! state); a larger one only up to the last line shown, so that a few lines of a huge log cost a few reads.

use std::fs::File;
use std::io::{BufReader, Cursor, Read};
use std::path::Path;

use tandem_protocol::{ReadContent, ToolDetail};

use super::lines::{self, Request, Scan};
use crate::tool::{ToolError, ToolOutput};
use crate::tools::file_io::encoding::{self, DecodeError};
use crate::tools::responses::{ReadFile, ReadResponse};

/// Lines returned when no limit is given.
pub const DEFAULT_LINE_LIMIT: usize = 2000;
/// Files up to this size are read to the end; larger ones only up to the last line shown.
pub const FULL_SCAN_BYTES: u64 = 32 << 20;
/// The read buffer of a streamed file.
const READ_BUFFER: usize = 256 * 1024;
/// The first bytes of a file, looked at for a byte-order mark and NUL bytes (see `encoding::looks_binary`).
const HEAD_BYTES: u64 = 8192 + 3;

/// A text file as Read showed it.
#[derive(Debug)]
pub struct TextRead {
    pub out: ToolOutput,
    /// Whether only part of the file was shown.
    pub partial: bool,
    /// The hash of the file's bytes, when it was read to the end.
    pub hash: Option<blake3::Hash>,
}

fn read_err(path: &Path, e: std::io::Error) -> ToolError {
    ToolError::to_model(format!("Cannot read {}: {e}", path.display()))
}

fn not_text_note(e: &DecodeError) -> String {
    format!(
        "<system-reminder>The file is not valid text ({e}); bytes that are not UTF-8 are shown as �. \
         It cannot be edited with Edit.</system-reminder>\n"
    )
}

/// Reads the text file `file` (`size` bytes long) at `path`, showing `limit` lines from line `offset`.
pub fn read_text(
    path: &Path,
    file: File,
    size: u64,
    offset: Option<u64>,
    limit: Option<u64>,
) -> Result<TextRead, ToolError> {
    let first = offset.unwrap_or(1).max(1) as usize;
    let limit = limit.map_or(DEFAULT_LINE_LIMIT, |l| l.max(1) as usize);
    let mut file = file;
    let mut head = Vec::new();
    (&mut file)
        .take(HEAD_BYTES)
        .read_to_end(&mut head)
        .map_err(|e| read_err(path, e))?;
    if head.starts_with(&[0xFF, 0xFE]) || head.starts_with(&[0xFE, 0xFF]) {
        return read_utf16(path, head, file, first, limit);
    }
    let bom = if head.starts_with(&[0xEF, 0xBB, 0xBF]) {
        3
    } else {
        0
    };
    let body_head = head.split_off(bom);
    if encoding::looks_binary(&body_head) {
        return Err(ToolError::to_model(format!(
            "{} is a binary file (it contains NUL bytes); this tool cannot read binary files.",
            path.display()
        )));
    }
    let to_end = size <= FULL_SCAN_BYTES;
    let hasher = to_end.then(|| {
        let mut h = blake3::Hasher::new();
        h.update(&head);
        h
    });
    let req = Request {
        first,
        limit,
        to_end,
        start: bom as u64,
    };
    let mut reader = BufReader::with_capacity(READ_BUFFER, Cursor::new(body_head).chain(file));
    let scan = lines::scan(&mut reader, req, hasher).map_err(|e| read_err(path, e))?;
    let note = scan
        .first_bad
        .map(|at| not_text_note(&DecodeError::InvalidUtf8(at as usize)))
        .unwrap_or_default();
    let hash = scan.hash;
    let (out, partial) = compose(path, &note, first, size, scan);
    Ok(TextRead { out, partial, hash })
}

/// A file with a UTF-16 byte-order mark, read whole and decoded (UTF-16BE is shown as bytes, with a note).
fn read_utf16(
    path: &Path,
    mut bytes: Vec<u8>,
    mut file: File,
    first: usize,
    limit: usize,
) -> Result<TextRead, ToolError> {
    file.read_to_end(&mut bytes)
        .map_err(|e| read_err(path, e))?;
    let hash = blake3::hash(&bytes);
    let (text, note) = match encoding::decode_ref(&bytes) {
        Ok((text, _)) => (text, String::new()),
        Err(e) => (String::from_utf8_lossy(&bytes), not_text_note(&e)),
    };
    let req = Request {
        first,
        limit,
        to_end: true,
        start: 0,
    };
    let scan = lines::scan(&mut text.as_bytes(), req, None).map_err(|e| read_err(path, e))?;
    let (out, partial) = compose(path, &note, first, bytes.len() as u64, scan);
    Ok(TextRead {
        out,
        partial,
        hash: Some(hash),
    })
}

/// The result text and detail of a scan, and whether only part of the file was shown.
fn compose(path: &Path, note: &str, first: usize, size: u64, scan: Scan) -> (ToolOutput, bool) {
    let (count, total, known) = (scan.count, scan.lines, scan.reached_end);
    let more_after = !known || first + count <= total;
    let partial = first > 1 || more_after;
    let response = ReadResponse::Text(ReadFile::from_numbered(
        path.display().to_string(),
        &scan.numbered,
        first,
        total,
    ));
    let mut content = if known && total == 0 {
        "<system-reminder>The file exists but is empty.</system-reminder>".to_string()
    } else if count == 0 {
        format!(
            "<system-reminder>The file has {total} lines; offset {first} is past its end.</system-reminder>"
        )
    } else {
        scan.numbered
    };
    if count > 0 && more_after {
        let last = first + count - 1;
        if known {
            content.push_str(&format!(
                "<system-reminder>Showing lines {first}-{last} of {total}. Use offset and limit to read more.</system-reminder>\n"
            ));
        } else {
            content.push_str(&format!(
                "<system-reminder>Showing lines {first}-{last}; more lines follow (the file is {size} bytes, too \
                 large to count its lines). Use offset and limit to read more.</system-reminder>\n"
            ));
        }
    }
    content.insert_str(0, note);
    let out = ToolOutput::text(content)
        .with_detail(ToolDetail::Read {
            path: path.display().to_string(),
            content: ReadContent::Text {
                start_line: first as u64,
                lines: count as u64,
                // A lower bound when the file was too large to count its lines.
                total_lines: total as u64,
            },
        })
        .with_structured(&response);
    (out, partial)
}

//! The file tools' result data: Read's file (`{type, file: {filePath, content, numLines, startLine, totalLines}}`),
//! Write's and Edit's change with its `structuredPatch` and the file as it was.

use schemars::JsonSchema;
use serde::Serialize;
use tandem_protocol::DiffHunk;

/// One hunk of a change: line numbers of the whole file, each line prefixed with `' '`, `'-'` or `'+'`.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PatchHunk {
    pub old_start: usize,
    pub old_lines: usize,
    pub new_start: usize,
    pub new_lines: usize,
    pub lines: Vec<String>,
}

impl From<&DiffHunk> for PatchHunk {
    fn from(h: &DiffHunk) -> Self {
        Self {
            old_start: h.old_start,
            old_lines: h.old_lines,
            new_start: h.new_start,
            new_lines: h.new_lines,
            lines: h.lines.clone(),
        }
    }
}

/// The hunks of a change in the result's shape.
pub fn patch_of(hunks: &[DiffHunk]) -> Vec<PatchHunk> {
    hunks.iter().map(PatchHunk::from).collect()
}

/// Whether Write made a new file or replaced one.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum WriteKind {
    Create,
    Update,
}

/// Write's result.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WriteResponse {
    #[serde(rename = "type")]
    pub kind: WriteKind,
    /// The file written (absolute).
    pub file_path: String,
    /// What the file holds now.
    pub content: String,
    pub structured_patch: Vec<PatchHunk>,
    /// What the file held before; `null` for a new file.
    pub original_file: Option<String>,
}

/// Edit's result.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct EditResponse {
    /// The file changed (absolute).
    pub file_path: String,
    pub old_string: String,
    pub new_string: String,
    /// What the file held before (empty for a file the edit created).
    pub original_file: String,
    pub structured_patch: Vec<PatchHunk>,
    /// Whether the person changed the proposed edit in the review dialog before it was written.
    pub user_modified: bool,
    pub replace_all: bool,
}

/// Read's result: the file shown, tagged with what kind of file it was.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(tag = "type", content = "file", rename_all = "lowercase")]
pub enum ReadResponse {
    /// A text file's lines.
    Text(ReadFile),
}

/// The lines of a text file Read showed.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReadFile {
    /// The file read (absolute).
    pub file_path: String,
    /// The lines shown, without Read's line numbers (long lines cut as shown).
    pub content: String,
    /// How many lines were shown.
    pub num_lines: usize,
    /// The first line shown (1-based).
    pub start_line: usize,
    /// The file's lines (a lower bound for a file too large to count).
    pub total_lines: usize,
}

impl ReadFile {
    /// The file's lines from Read's numbered text (`number\tline` per line).
    pub fn from_numbered(
        file_path: String,
        numbered: &str,
        start_line: usize,
        total: usize,
    ) -> Self {
        let lines: Vec<&str> = numbered
            .lines()
            .map(|l| l.split_once('\t').map_or(l, |(_, text)| text))
            .collect();
        Self {
            file_path,
            num_lines: lines.len(),
            content: lines.join("\n"),
            start_line,
            total_lines: total,
        }
    }
}

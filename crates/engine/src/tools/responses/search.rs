//! Glob's and Grep's result data: the files found (as the model was shown them), their count, and for Grep the
//! content lines or counts of its mode.

use schemars::JsonSchema;
use serde::Serialize;

/// Glob's result.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct GlobResponse {
    /// The files listed, most recently modified first.
    pub filenames: Vec<String>,
    pub duration_ms: u64,
    pub num_files: usize,
    /// Whether more files matched than were listed.
    pub truncated: bool,
}

/// Grep's output mode.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum GrepMode {
    Content,
    FilesWithMatches,
    Count,
}

/// Grep's result.
#[derive(Debug, Clone, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct GrepResponse {
    pub mode: GrepMode,
    /// Files with a match.
    pub num_files: usize,
    /// The files listed (files_with_matches mode; empty in the others).
    pub filenames: Vec<String>,
    /// The lines shown (content and count modes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    /// How many lines `content` holds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub num_lines: Option<usize>,
    /// Matches in all (count mode).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub num_matches: Option<u64>,
    /// The `head_limit` applied, when it left results out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub applied_limit: Option<usize>,
    /// The `offset` applied, when not 0.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub applied_offset: Option<usize>,
}

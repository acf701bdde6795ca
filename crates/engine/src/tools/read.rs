//! The Read tool: a text file with line numbers, from `offset` for `limit` lines.

use std::hash::{Hash, Hasher};

use schemars::JsonSchema;
use serde::Deserialize;
use tandem_protocol::{RenderHints, ToolKind};

use crate::permission::PermissionSubject;
use crate::tool::{FileReadState, InterruptBehavior, Tool, ToolContext, ToolError, ToolOutput};

/// Lines returned when no limit is given.
pub const DEFAULT_LINE_LIMIT: usize = 2000;
/// Longer lines are cut to this many characters.
pub const MAX_LINE_CHARS: usize = 2000;

/// Reads a file from the local filesystem.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadInput {
    /// The absolute path of the file to read.
    pub file_path: String,
    /// The line number to start reading from (1-based). Only give it for files too large to read at once.
    #[schemars(range(min = 0))]
    pub offset: Option<u64>,
    /// The number of lines to read. Only give it for files too large to read at once.
    #[schemars(range(min = 1))]
    pub limit: Option<u64>,
}

/// The Read tool.
#[derive(Debug, Default)]
pub struct ReadTool;

fn hash_bytes(bytes: &[u8]) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    bytes.hash(&mut h);
    h.finish()
}

/// Formats lines as `cat -n` does: right-aligned numbers, a tab, the line.
pub fn number_lines(text: &str, first_line: usize, limit: usize) -> (String, usize) {
    let mut out = String::new();
    let mut count = 0;
    for (i, line) in text
        .lines()
        .enumerate()
        .skip(first_line.saturating_sub(1))
        .take(limit)
    {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let shown: String = if line.chars().count() > MAX_LINE_CHARS {
            line.chars()
                .take(MAX_LINE_CHARS)
                .chain("… [line truncated]".chars())
                .collect()
        } else {
            line.to_string()
        };
        out.push_str(&format!("{:>6}\t{}\n", i + 1, shown));
        count += 1;
    }
    (out, count)
}

impl Tool for ReadTool {
    type Input = ReadInput;

    fn name(&self) -> &'static str {
        "Read"
    }

    fn description(&self) -> String {
        "Reads a file from the local filesystem. The file_path must be absolute. By default up to 2000 lines are \
         read from the start; offset and limit read a part of a long file. Lines longer than 2000 characters are \
         cut. The result numbers each line like `cat -n`."
            .to_string()
    }

    fn is_concurrency_safe(&self, _input: &ReadInput) -> bool {
        true
    }

    fn is_read_only(&self, _input: &ReadInput) -> bool {
        true
    }

    fn interrupt_behavior(&self) -> InterruptBehavior {
        InterruptBehavior::Cancel
    }

    fn render_hints(&self, input: &ReadInput, ctx: &ToolContext) -> RenderHints {
        let path = ctx.resolve(&input.file_path);
        let shown = path
            .strip_prefix(&ctx.cwd)
            .unwrap_or(&path)
            .display()
            .to_string();
        RenderHints {
            kind: ToolKind::Read,
            title: format!("Read {shown}"),
            collapsible: true,
        }
    }

    fn permission_subject(&self, input: &ReadInput, ctx: &ToolContext) -> PermissionSubject {
        PermissionSubject::ReadPath(ctx.resolve(&input.file_path))
    }

    async fn validate_input(&self, input: &ReadInput, _ctx: &ToolContext) -> Result<(), String> {
        if input.file_path.trim().is_empty() {
            return Err("file_path is empty".into());
        }
        Ok(())
    }

    async fn call(&self, input: &ReadInput, ctx: &ToolContext) -> Result<ToolOutput, ToolError> {
        let path = ctx.resolve(&input.file_path);
        let meta = tokio::fs::metadata(&path)
            .await
            .map_err(|e| ToolError::to_model(format!("cannot read {}: {e}", path.display())))?;
        if meta.is_dir() {
            return Err(ToolError::to_model(format!(
                "{} is a directory, not a file",
                path.display()
            )));
        }
        let bytes = tokio::fs::read(&path)
            .await
            .map_err(|e| ToolError::to_model(format!("cannot read {}: {e}", path.display())))?;
        if bytes.iter().take(8192).any(|b| *b == 0) {
            return Err(ToolError::to_model(format!(
                "{} is a binary file; it cannot be read as text",
                path.display()
            )));
        }
        let text = String::from_utf8_lossy(&bytes);
        let first = input.offset.unwrap_or(1).max(1) as usize;
        let limit = input
            .limit
            .map(|l| l as usize)
            .unwrap_or(DEFAULT_LINE_LIMIT);
        let (numbered, count) = number_lines(&text, first, limit);
        let total = text.lines().count();
        ctx.file_state.record(
            &path,
            FileReadState {
                modified: meta.modified().ok(),
                size: meta.len(),
                content_hash: hash_bytes(&bytes),
                partial: first > 1 || first + count <= total,
            },
        );
        let content = if total == 0 {
            "<system-reminder>The file exists but is empty.</system-reminder>".to_string()
        } else if count == 0 {
            format!(
                "<system-reminder>The file has {total} lines; offset {first} is past its end.</system-reminder>"
            )
        } else {
            numbered
        };
        Ok(ToolOutput::text(content)
            .with_detail(serde_json::json!({"path": path, "lines": count, "total_lines": total})))
    }
}

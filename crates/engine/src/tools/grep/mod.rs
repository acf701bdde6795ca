//! The Grep tool: searches file contents with ripgrep's own crates, finding exactly what `rg` finds for the same
//! arguments (see [`rg_args`]). Three output modes: the files with matches (newest first), the matching lines with
//! optional context, or counts per file; `offset` and `head_limit` page through the results.

mod output;
mod rg_args;
pub mod search;

use std::path::PathBuf;

use schemars::JsonSchema;
use serde::Deserialize;
use tandem_protocol::{RenderHints, ToolDetail};

use crate::permission::PermissionSubject;
use crate::tool::names;
use crate::tool::{InterruptBehavior, Tool, ToolContext, ToolError, ToolOutput};
use crate::tools::file_io::paths;
use crate::tools::responses::{self, GrepMode, GrepResponse};
use output::Page;
pub use rg_args::rg_args;
use search::{Collect, Query};

/// Results shown when no head_limit is given.
pub const DEFAULT_HEAD_LIMIT: usize = 250;

/// What Grep returns.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum OutputMode {
    /// Matching lines (`path:line:text`), with context if asked.
    Content,
    /// The paths of files with at least one match (default).
    #[default]
    FilesWithMatches,
    /// The number of matching lines per file.
    Count,
}

/// Searches file contents with a regular expression (ripgrep syntax).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GrepInput {
    /// The regular expression to search for (Rust regex syntax, as ripgrep's).
    pub pattern: String,
    /// The file or folder to search (default: the working directory).
    pub path: Option<String>,
    /// Only search files matching this glob, e.g. "*.js" or "*.{ts,tsx}" (several may be separated by spaces).
    pub glob: Option<String>,
    /// content, files_with_matches (default) or count.
    pub output_mode: Option<OutputMode>,
    /// Lines of context before each match (content mode).
    #[serde(rename = "-B")]
    pub before: Option<u32>,
    /// Lines of context after each match (content mode).
    #[serde(rename = "-A")]
    pub after: Option<u32>,
    /// Lines of context before and after each match (content mode).
    #[serde(rename = "-C")]
    pub context: Option<u32>,
    /// Show line numbers (content mode; default true).
    #[serde(rename = "-n")]
    pub line_numbers: Option<bool>,
    /// Case-insensitive search.
    #[serde(rename = "-i")]
    pub case_insensitive: Option<bool>,
    /// Only search files of this type (ripgrep's types: rust, py, js, ts, go, java, c, cpp, md, ...).
    #[serde(rename = "type")]
    pub file_type: Option<String>,
    /// Show only the first N lines or entries (default 250; 0 for all).
    pub head_limit: Option<u32>,
    /// Skip the first N lines or entries.
    pub offset: Option<u32>,
    /// Let patterns span lines (`.` matches newlines too).
    pub multiline: Option<bool>,
}

impl GrepInput {
    /// Lines of context (before, after).
    pub fn context(&self) -> (usize, usize) {
        let c = self.context.unwrap_or(0) as usize;
        (
            self.before.map_or(c, |b| b as usize),
            self.after.map_or(c, |a| a as usize),
        )
    }
}

/// Splits the glob parameter as ripgrep users write it: on whitespace, and on commas outside braces.
pub fn split_globs(glob: Option<&str>) -> Vec<String> {
    let Some(glob) = glob else { return Vec::new() };
    let mut out = Vec::new();
    for word in glob.split_whitespace() {
        if word.contains('{') {
            out.push(word.to_string());
        } else {
            out.extend(
                word.split(',')
                    .filter(|g| !g.is_empty())
                    .map(str::to_string),
            );
        }
    }
    out
}

/// The Grep tool.
#[derive(Debug, Default)]
pub struct GrepTool;

fn root(input: &GrepInput, ctx: &ToolContext) -> PathBuf {
    input
        .path
        .as_deref()
        .map_or_else(|| ctx.cwd.clone(), |p| paths::absolute(ctx, p))
}

fn run(input: &GrepInput, ctx: &ToolContext) -> Result<ToolOutput, ToolError> {
    let mode = input.output_mode.unwrap_or_default();
    let (before, after) = input.context();
    let query = Query {
        pattern: input.pattern.clone(),
        root: root(input, ctx),
        case_insensitive: input.case_insensitive.unwrap_or(false),
        multiline: input.multiline.unwrap_or(false),
        globs: split_globs(input.glob.as_deref()),
        file_type: input.file_type.clone(),
        before: if mode == OutputMode::Content {
            before
        } else {
            0
        },
        after: if mode == OutputMode::Content {
            after
        } else {
            0
        },
        collect: match mode {
            OutputMode::Content => Collect::Lines,
            OutputMode::Count => Collect::Count,
            OutputMode::FilesWithMatches => Collect::FirstMatch,
        },
        denied: ctx.read_denied.clone(),
        skipped: Default::default(),
        unreadable: Default::default(),
    };
    let page = Page {
        offset: input.offset.unwrap_or(0) as usize,
        limit: match input.head_limit {
            Some(0) => None,
            Some(n) => Some(n as usize),
            None => Some(DEFAULT_HEAD_LIMIT),
        },
    };
    let found = match (mode, page.limit) {
        // One line more than the page shows, so that "more were left out" is known.
        (OutputMode::Content, Some(limit)) => {
            search::run_ordered(&query, &ctx.cancel, page.offset + limit + 1)
        }
        _ => search::run(&query, &ctx.cancel),
    };
    let mut files = found.map_err(|e| ToolError::to_model(e.to_string()))?;
    if ctx.cancel.is_cancelled() {
        return Err(ToolError::Cancelled);
    }
    let show = |p: &std::path::Path| paths::display(ctx, p);
    let total_matches: u64 = files.iter().map(|f| f.count).sum();
    let file_count = files.len();
    let mut listed_files = Vec::new();
    let (text, shown, more) = match mode {
        OutputMode::FilesWithMatches => {
            output::by_mtime(&mut files);
            let names: Vec<String> = files.iter().map(|f| show(&f.path)).collect();
            let (names, more) = page.apply(names);
            listed_files.clone_from(&names);
            let head = format!(
                "Found {file_count} file{}",
                if file_count == 1 { "" } else { "s" }
            );
            let text = if file_count == 0 {
                "No files found".to_string()
            } else {
                format!("{head}\n{}", names.join("\n"))
            };
            (text, names.len(), more)
        }
        OutputMode::Count => {
            files.sort_by(|a, b| a.path.cmp(&b.path));
            let lines: Vec<String> = files
                .iter()
                .map(|f| format!("{}:{}", show(&f.path), f.count))
                .collect();
            let (lines, more) = page.apply(lines);
            let text = if file_count == 0 {
                "No matches found".to_string()
            } else {
                format!(
                    "{}\n\nFound {total_matches} total occurrence{} across {file_count} file{}.",
                    lines.join("\n"),
                    if total_matches == 1 { "" } else { "s" },
                    if file_count == 1 { "" } else { "s" }
                )
            };
            (text, lines.len(), more)
        }
        OutputMode::Content => {
            files.sort_by(|a, b| a.path.cmp(&b.path));
            let numbers = input.line_numbers.unwrap_or(true);
            let lines = output::content_lines(&files, show, numbers, before + after > 0);
            let (lines, more) = page.apply(lines);
            let text = if lines.is_empty() {
                "No matches found".to_string()
            } else {
                lines.join("\n")
            };
            (text, lines.len(), more)
        }
    };
    let response = GrepResponse {
        mode: match mode {
            OutputMode::Content => GrepMode::Content,
            OutputMode::FilesWithMatches => GrepMode::FilesWithMatches,
            OutputMode::Count => GrepMode::Count,
        },
        num_files: file_count,
        filenames: listed_files,
        content: (mode != OutputMode::FilesWithMatches).then(|| text.clone()),
        num_lines: (mode != OutputMode::FilesWithMatches).then_some(shown),
        num_matches: (mode == OutputMode::Count).then_some(total_matches),
        applied_limit: more.then_some(page.limit).flatten(),
        applied_offset: (page.offset > 0).then_some(page.offset),
    };
    let mut text = text;
    if let Some(note) = query.unreadable.note() {
        text.push_str(&format!("\n\n{note}"));
    }
    let skipped = query.skipped.load(std::sync::atomic::Ordering::Relaxed);
    if skipped > 0 {
        text.push_str(&format!(
            "\n\n[{skipped} file{} not searched: a deny rule forbids reading {}.]",
            if skipped == 1 { " was" } else { "s were" },
            if skipped == 1 { "it" } else { "them" }
        ));
    }
    if more {
        text.push_str(&format!(
            "\n\n[Showing {shown} results from offset {}; more were left out. Use offset to see more.]",
            page.offset
        ));
    }
    Ok(ToolOutput::text(text)
        .with_detail(ToolDetail::Search {
            files: file_count as u64,
            matches: total_matches,
            shown: shown as u64,
            truncated: more,
        })
        .with_structured(&response))
}

impl Tool for GrepTool {
    type Input = GrepInput;

    fn output_schema(&self) -> Option<serde_json::Value> {
        responses::schema::<GrepResponse>()
    }

    fn name(&self) -> &'static str {
        names::GREP
    }

    fn description(&self) -> String {
        "A powerful search tool built on ripgrep. Supports full regex syntax (e.g. \"log.*Error\", \
         \"function\\s+\\w+\"). Filter files with glob (e.g. \"*.js\") or type (e.g. \"py\", \"rust\"). Output \
         modes: \"content\" shows matching lines (with -A/-B/-C context and -n line numbers), \
         \"files_with_matches\" (default) shows file paths, newest first, \"count\" shows match counts. Use \
         multiline for patterns that span lines. head_limit (default 250) and offset page through results. Files \
         ignored by .gitignore are not searched; hidden files are."
            .to_string()
    }

    fn is_concurrency_safe(&self, _input: &GrepInput) -> bool {
        true
    }

    fn is_read_only(&self, _input: &GrepInput) -> bool {
        true
    }

    fn interrupt_behavior(&self) -> InterruptBehavior {
        InterruptBehavior::Cancel
    }

    fn render_hints(&self, input: &GrepInput, _ctx: &ToolContext) -> RenderHints {
        super::search_hints(
            format!("Search \"{}\"", input.pattern),
            input.path.as_deref(),
        )
    }

    fn permission_subject(&self, input: &GrepInput, ctx: &ToolContext) -> PermissionSubject {
        PermissionSubject::ReadPath(root(input, ctx))
    }

    fn backfill_observable_input(&self, input: &mut serde_json::Value, ctx: &ToolContext) {
        crate::tools::read::backfill_path(input, "path", ctx);
    }

    async fn validate_input(&self, input: &GrepInput, _ctx: &ToolContext) -> Result<(), String> {
        if input.pattern.is_empty() {
            return Err("pattern is empty".into());
        }
        if input.path.as_deref().is_some_and(paths::is_unc) {
            return Err("UNC (network) paths are not searched.".into());
        }
        let probe = Query {
            pattern: input.pattern.clone(),
            root: PathBuf::new(),
            case_insensitive: input.case_insensitive.unwrap_or(false),
            multiline: input.multiline.unwrap_or(false),
            globs: Vec::new(),
            file_type: None,
            before: 0,
            after: 0,
            collect: Collect::Count,
            denied: None,
            skipped: Default::default(),
            unreadable: Default::default(),
        };
        search::matcher(&probe)
            .map(|_| ())
            .map_err(|e| e.to_string())
    }

    async fn call(&self, input: &GrepInput, ctx: &ToolContext) -> Result<ToolOutput, ToolError> {
        let ctx = ctx.clone();
        let input = input.clone();
        tokio::task::spawn_blocking(move || run(&input, &ctx))
            .await
            .map_err(|e| ToolError::to_model(format!("the search failed: {e}")))?
    }
}

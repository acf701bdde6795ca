//! What a tool result carries for the window besides the text the model is given: one typed variant per kind of
//! result (a file change, a shell run, a read, a search, ...), so the window switches on the variant instead of on
//! tool names. Reading is lenient (see [`legacy`]): a detail this version does not know becomes [`ToolDetail::Other`].

mod legacy;

use schemars::JsonSchema;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;
use ts_rs::TS;

use crate::{FileDiff, Usage};

/// One hunk of a unified diff, with line numbers of the whole file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct DiffHunk {
    #[ts(type = "number")]
    pub old_start: usize,
    #[ts(type = "number")]
    pub old_lines: usize,
    #[ts(type = "number")]
    pub new_start: usize,
    #[ts(type = "number")]
    pub new_lines: usize,
    /// Each line prefixed with `' '`, `'-'` or `'+'`, without its line ending.
    pub lines: Vec<String>,
}

/// The notebook cell a NotebookEdit changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct NotebookCellChange {
    /// The cell's id, when the edit named one.
    pub cell_id: Option<String>,
    /// What was done, e.g. `Replaced cell abc`.
    pub summary: String,
}

/// Where a background shell is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum TaskStatus {
    Running,
    /// It ended by itself (`exit_code` is set when it exited with a code).
    Exited,
    /// Stopped by TaskStop or by the session ending.
    Killed,
}

/// What a Read returned, by the kind of file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "format", rename_all = "snake_case")]
pub enum ReadContent {
    /// Lines `start_line ..` (`lines` of them) of a text file of `total_lines`.
    Text {
        #[ts(type = "number")]
        start_line: u64,
        #[ts(type = "number")]
        lines: u64,
        #[ts(type = "number")]
        total_lines: u64,
    },
    /// An image, scaled from `original_size` to `size` (width, height) for the model.
    Image {
        media_type: String,
        original_size: [u32; 2],
        size: [u32; 2],
        /// Bytes sent to the model.
        #[ts(type = "number")]
        bytes: u64,
    },
    /// A Jupyter notebook of `cells` cells.
    Notebook { cells: u32 },
    /// The text of `pages` of a PDF of `page_count` pages.
    Pdf { pages: Vec<u32>, page_count: u32 },
}

/// One link of a web search result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct WebLink {
    pub title: String,
    pub url: String,
    /// How old the page is, as the provider says it (e.g. `2 days ago`).
    pub page_age: Option<String>,
}

/// How the person revised a proposed file change before accepting it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct FileRevision {
    /// The proposal's hunks the person rejected, numbered from 1.
    pub rejected_hunks: Vec<u32>,
    /// How many hunks the proposal had.
    pub total_hunks: u32,
    /// Whether the person edited the proposed text by hand.
    pub edited: bool,
}

/// Structured data for the window about one tool result; never sent to the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
// Serde's derives become inherent functions here: the trait impls below wrap them to make reading lenient.
#[serde(remote = "Self", tag = "type", rename_all = "snake_case")]
#[schemars(rename = "ToolDetail")]
pub enum ToolDetail {
    /// A file was created or changed (Edit, Write, NotebookEdit).
    FileChange {
        /// Absolute path of the file.
        path: String,
        /// Whether the file did not exist before.
        created: bool,
        /// How many occurrences an Edit replaced; `None` for tools that write the whole file.
        replacements: Option<u32>,
        /// The change as unified-diff hunks (empty when not computed).
        hunks: Vec<DiffHunk>,
        /// The file before and after, for the diff view; `None` when too large to carry.
        diff: Option<FileDiff>,
        /// For a notebook: the cell that changed.
        cell: Option<NotebookCellChange>,
        /// The sub-agent that made the change (`None`: the session's own agent).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        changed_by: Option<Box<crate::SubAgentOrigin>>,
        /// Set when the person revised the proposal before accepting it (rejected hunks, edited the text): the
        /// hunks and diff above are then of the file as written, not of the proposal.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        revised: Option<FileRevision>,
        /// What the session's language servers said the change broke (the errors it introduced, or that a server
        /// is missing or crashed), as the model was told; shown on the edit's row.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        diagnostics: Option<String>,
    },
    /// A shell command ran in the foreground and ended.
    Shell {
        exit_code: Option<u32>,
        /// The directory the next command starts in.
        cwd: String,
        /// Whether the command left the working directories and the directory was reset.
        cwd_reset: bool,
    },
    /// A background shell: started, read or stopped.
    BackgroundTask {
        task_id: String,
        command: String,
        /// The file its raw output is appended to.
        log: String,
        status: TaskStatus,
        exit_code: Option<u32>,
    },
    /// A file was read.
    Read {
        /// Absolute path of the file.
        path: String,
        content: ReadContent,
    },
    /// Files found by name (Glob), most recently modified first.
    FileList {
        /// The files shown (all of them unless `truncated`).
        files: Vec<String>,
        #[ts(type = "number")]
        total: u64,
        truncated: bool,
    },
    /// A content search (Grep).
    Search {
        /// Files with a match.
        #[ts(type = "number")]
        files: u64,
        /// Matching lines in all of them.
        #[ts(type = "number")]
        matches: u64,
        /// Result lines shown to the model.
        #[ts(type = "number")]
        shown: u64,
        /// Whether results were left out (there are more from a later offset).
        truncated: bool,
    },
    /// A sub-agent ran its own conversation; its events belong to `agent_id`.
    SubAgent {
        agent_id: String,
        agent_type: String,
        description: String,
        tool_calls: u32,
        usage: Usage,
        #[ts(type = "number")]
        duration_ms: u64,
    },
    /// A tool of an MCP server answered.
    Mcp {
        server: String,
        tool: String,
        /// The server's `structuredContent`, when it sent one.
        #[ts(type = "unknown")]
        structured_content: Option<Value>,
        /// The result's `_meta` (what the server attached for its clients, such as a UI resource to show), when
        /// it sent one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional, type = "unknown")]
        meta: Option<Value>,
    },
    /// A page was fetched (WebFetch).
    WebFetch {
        /// The URL fetched (after the upgrade to https and any same-host redirects).
        url: String,
        /// The HTTP status of the answer.
        status: u16,
        /// Bytes of the page as received.
        #[ts(type = "number")]
        bytes: u64,
        /// Whether the page was answered from the session's cache.
        cached: bool,
        /// Whether a model answered the prompt from the page (`false`: the page's text was given as it is).
        summarized: bool,
        /// Set when the server redirected to another host: that URL (nothing was fetched from it).
        redirect: Option<String>,
    },
    /// A web search the provider ran (its server-side search tool).
    WebSearch {
        query: String,
        /// The results, in the provider's order.
        results: Vec<WebLink>,
        /// Set when the search failed (the provider's error code).
        error: Option<String>,
    },
    /// A skill was invoked: its instructions were given to the model.
    Skill {
        name: String,
        /// The SKILL.md file.
        path: String,
        /// Tools the skill allows without asking while it is in use.
        allowed_tools: Vec<String>,
    },
    /// Deferred tools were searched and loaded (ToolSearch).
    ToolSearch {
        query: String,
        /// The tools whose definitions were loaded.
        loaded: Vec<String>,
        /// How many deferred tools there are in all.
        total_deferred: u32,
    },
    /// The WebBrowser tool acted on its page (behind `WEB_BROWSER_TOOL`).
    WebBrowser {
        /// What it did: `navigate`, `read`, `click`, `type`, `screenshot` or `close`.
        action: String,
        /// Where the page is after the action (empty when the browser is closed).
        url: String,
        /// The page's title.
        title: String,
        /// For a screenshot: a small JPEG of it as a `data:` URL, for the window (the model gets the full PNG).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        preview: Option<String>,
    },
    /// A detail this version does not know (written by another version of Tandem), kept as it was.
    Other {
        #[ts(type = "unknown")]
        data: Value,
    },
}

impl Serialize for ToolDetail {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        ToolDetail::serialize(self, serializer)
    }
}

impl<'de> Deserialize<'de> for ToolDetail {
    /// Never fails on a JSON value: the current form, then the forms older versions stored, else [`ToolDetail::Other`].
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = Value::deserialize(deserializer)?;
        Ok(Self::from_value(value))
    }
}

impl ToolDetail {
    /// Reads a detail in the current form or a form older versions stored; anything else is kept as `Other`.
    pub fn from_value(value: Value) -> Self {
        ToolDetail::deserialize(&value)
            .ok()
            .or_else(|| legacy::upgrade(&value))
            .unwrap_or(ToolDetail::Other { data: value })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn round_trips_with_its_tag() {
        let detail = ToolDetail::Shell {
            exit_code: Some(0),
            cwd: "/p".into(),
            cwd_reset: false,
        };
        let json = serde_json::to_value(&detail).expect("serialises");
        assert_eq!(json["type"], "shell");
        assert_eq!(
            serde_json::from_value::<ToolDetail>(json).expect("reads"),
            detail
        );
    }

    #[test]
    fn nested_read_content_is_tagged_by_format() {
        let detail = ToolDetail::Read {
            path: "/p/a.txt".into(),
            content: ReadContent::Text {
                start_line: 1,
                lines: 2,
                total_lines: 2,
            },
        };
        let json = serde_json::to_value(&detail).expect("serialises");
        assert_eq!(json["content"]["format"], "text");
        assert_eq!(
            serde_json::from_value::<ToolDetail>(json).expect("reads"),
            detail
        );
    }

    #[test]
    fn an_unknown_detail_is_kept_as_other() {
        let data = json!({"type": "from_the_future", "x": 1});
        let detail: ToolDetail = serde_json::from_value(data.clone()).expect("never fails");
        assert_eq!(detail, ToolDetail::Other { data });
    }

    #[test]
    fn a_known_tag_with_wrong_fields_is_kept_as_other() {
        let data = json!({"type": "shell", "cwd": 3});
        let detail: ToolDetail = serde_json::from_value(data.clone()).expect("never fails");
        assert_eq!(detail, ToolDetail::Other { data });
    }
}

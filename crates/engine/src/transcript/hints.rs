//! How an imported tool call is drawn: its kind and one line naming what it does, from its name and input (the
//! reference agent's tools share the built-in tools' names).

use serde_json::Value;
use tandem_protocol::{RenderHints, ToolKind};

/// The hints of a call of `name` with `input`.
pub fn hints(name: &str, input: &Value) -> RenderHints {
    let kind = match name {
        "Read" | "NotebookRead" => ToolKind::Read,
        "Grep" | "Glob" | "ToolSearch" => ToolKind::Search,
        "LS" => ToolKind::List,
        "Edit" | "MultiEdit" | "NotebookEdit" => ToolKind::Edit,
        "Write" => ToolKind::Write,
        "Bash" | "BashOutput" | "KillShell" | "KillBash" => ToolKind::Shell,
        "WebFetch" | "WebSearch" => ToolKind::Fetch,
        "Task" | "Agent" => ToolKind::Agent,
        _ => ToolKind::Other,
    };
    let detail = [
        "file_path",
        "notebook_path",
        "path",
        "command",
        "pattern",
        "url",
        "query",
        "description",
    ]
    .iter()
    .find_map(|key| input.get(key).and_then(Value::as_str))
    .map(|d| {
        d.lines()
            .next()
            .unwrap_or("")
            .chars()
            .take(120)
            .collect::<String>()
    });
    RenderHints {
        kind,
        title: match detail {
            Some(d) if !d.is_empty() => format!("{name} {d}"),
            _ => name.to_string(),
        },
        collapsible: matches!(kind, ToolKind::Read | ToolKind::Search | ToolKind::List),
    }
}

//! A session as Markdown: a heading per prompt and answer, each tool call with its input and result in fenced
//! blocks, and each sub-agent's transcript under the call that started it, quoted.

use std::collections::HashMap;
use std::fmt::Write;

use super::clean::{fence_for, iso_time, printable, results_by_call};
use crate::model::{ContentBlock, Message, Role};
use crate::store::{LoadedSession, Sidechain};

pub fn render(session: &LoadedSession) -> String {
    let r = &session.record;
    let mut out = String::new();
    let title = if r.title.is_empty() {
        "(untitled)"
    } else {
        &r.title
    };
    let _ = writeln!(out, "# {}\n", one_line(title));
    let _ = writeln!(out, "- Session: `{}`", one_line(&r.id));
    let _ = writeln!(
        out,
        "- Folder: `{}`",
        one_line(&r.folder.display().to_string())
    );
    if !r.model.is_empty() {
        let _ = writeln!(out, "- Model: {}", one_line(&r.model));
    }
    let _ = writeln!(out, "- Started: {}", iso_time(r.created_at));
    let _ = writeln!(out, "- Updated: {}\n", iso_time(r.updated_at));
    let chains: HashMap<&str, &Sidechain> = session
        .sidechains
        .iter()
        .map(|c| (c.parent_tool_use_id.as_str(), c))
        .collect();
    messages(&mut out, &session.history, &chains, "");
    out
}

/// The messages, each line starting with `quote` (a sub-agent's are quoted).
fn messages(
    out: &mut String,
    history: &[Message],
    chains: &HashMap<&str, &Sidechain>,
    quote: &str,
) {
    let results = results_by_call(history);
    let mut text = String::new();
    for message in history {
        for block in &message.content {
            match (message.role, block) {
                (Role::User, ContentBlock::Text { text: t }) => {
                    let _ = writeln!(text, "## Prompt\n\n{}\n", printable(t).trim_end());
                }
                (Role::Assistant, ContentBlock::Text { text: t }) => {
                    let _ = writeln!(text, "## Answer\n\n{}\n", printable(t).trim_end());
                }
                (Role::Assistant, ContentBlock::Thinking { thinking, .. }) => {
                    let body = printable(thinking);
                    let fence = fence_for(&body);
                    let _ = writeln!(
                        text,
                        "### Thinking\n\n{fence}text\n{}\n{fence}\n",
                        body.trim_end()
                    );
                }
                (_, ContentBlock::Image { .. }) => text.push_str("*[image]*\n\n"),
                (Role::Assistant, ContentBlock::ToolUse { id, name, input })
                | (Role::Assistant, ContentBlock::ServerToolUse { id, name, input }) => {
                    let input = serde_json::to_string_pretty(input).unwrap_or_default();
                    let input = printable(&input);
                    let fence = fence_for(&input);
                    let _ = writeln!(
                        text,
                        "### Tool call: {} (`{}`)\n\nInput:\n\n{fence}json\n{input}\n{fence}\n",
                        one_line(name),
                        one_line(id)
                    );
                    match results.get(id.as_str()) {
                        Some((result, is_error)) => {
                            let body = printable(result);
                            let fence = fence_for(&body);
                            let label = if *is_error {
                                "Result (error)"
                            } else {
                                "Result"
                            };
                            let _ = writeln!(
                                text,
                                "{label}:\n\n{fence}text\n{}\n{fence}\n",
                                body.trim_end()
                            );
                        }
                        None => text.push_str("*No result.*\n\n"),
                    }
                    if let Some(chain) = chains.get(id.as_str()) {
                        let _ = writeln!(
                            text,
                            "### Sub-agent {}: {}\n",
                            one_line(&chain.agent_type),
                            one_line(&chain.description)
                        );
                        let mut inner = String::new();
                        messages(&mut inner, &chain.messages, &HashMap::new(), "> ");
                        text.push_str(&inner);
                        text.push('\n');
                    }
                }
                _ => {}
            }
        }
    }
    if quote.is_empty() {
        out.push_str(&text);
    } else {
        for line in text.lines() {
            let _ = writeln!(out, "{quote}{line}");
        }
    }
}

/// Text for a heading or a list item: one line.
fn one_line(text: &str) -> String {
    printable(text).replace(['\n', '\t'], " ")
}

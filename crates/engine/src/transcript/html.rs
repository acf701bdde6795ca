//! A session as one self-contained HTML page: inline CSS and nothing else to load, no script. Prompts and answers
//! in order; each tool call a `<details>` block (input, result, a diff for file changes); each sub-agent's
//! transcript folded under the call that started it. Everything the session holds is escaped.

use std::collections::HashMap;
use std::fmt::Write;

use super::clean::{html_escape, iso_time, results_by_call};
use super::hints::hints;
use super::html_diff::diff_html;
use crate::model::{ContentBlock, Message, Role};
use crate::store::{LoadedSession, Sidechain};

const STYLE: &str = "\
body{font:15px/1.5 system-ui,sans-serif;margin:0;background:#f6f6f4;color:#1d1d1b}\
main{max-width:960px;margin:0 auto;padding:24px}\
h1{font-size:22px;margin:0 0 4px}.meta{color:#666;font-size:13px;margin-bottom:24px}\
.msg{background:#fff;border:1px solid #ddd;border-radius:8px;padding:10px 14px;margin:10px 0}\
.user{border-left:4px solid #3b6fd8}.assistant{border-left:4px solid #5a9a5a}\
.who{font-size:12px;font-weight:600;color:#777;text-transform:uppercase;margin-bottom:4px}\
.text{white-space:pre-wrap;overflow-wrap:anywhere}\
details{border:1px solid #ddd;border-radius:6px;margin:6px 0;background:#fafafa}\
summary{cursor:pointer;padding:4px 8px;font-family:ui-monospace,monospace;font-size:13px}\
details>div{padding:4px 10px}.label{font-size:12px;color:#777}\
pre{white-space:pre-wrap;overflow-wrap:anywhere;font:12px/1.45 ui-monospace,monospace;margin:4px 0;\
background:#fff;border:1px solid #eee;padding:6px;max-height:480px;overflow:auto}\
.error pre{border-color:#e0a0a0;background:#fff6f6}.thinking .text{color:#666;font-style:italic}\
.diff span{display:block}.add{background:#e6ffec;color:#116329}.del{background:#ffebe9;color:#a40e26}\
.hunk{color:#6639ba}.file{font-family:ui-monospace,monospace;font-size:12px;font-weight:600}\
.agent{border-left:4px solid #b08a2e;background:#fffdf6}";

pub fn render(session: &LoadedSession) -> String {
    let r = &session.record;
    let title = if r.title.is_empty() {
        "(untitled)".to_string()
    } else {
        html_escape(&r.title)
    };
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<main>\n<h1>{title}</h1>\n\
         <div class=\"meta\">{} · {} · {} · session {}</div>\n",
        html_escape(&r.folder.display().to_string()),
        html_escape(&r.model),
        iso_time(r.created_at),
        html_escape(&r.id)
    );
    let chains: HashMap<&str, &Sidechain> = session
        .sidechains
        .iter()
        .map(|c| (c.parent_tool_use_id.as_str(), c))
        .collect();
    messages(&mut out, &session.history, &chains);
    out.push_str("</main>\n</body>\n</html>\n");
    out
}

fn messages(out: &mut String, history: &[Message], chains: &HashMap<&str, &Sidechain>) {
    let results = results_by_call(history);
    for message in history {
        let (class, who) = match message.role {
            Role::User => ("user", "You"),
            Role::Assistant => ("assistant", "Agent"),
        };
        let mut body = String::new();
        for block in &message.content {
            match block {
                ContentBlock::Text { text } if !text.trim().is_empty() => {
                    let _ = writeln!(
                        body,
                        "<div class=\"text\">{}</div>",
                        html_escape(text.trim_end())
                    );
                }
                ContentBlock::Thinking { thinking, .. } => {
                    let _ = writeln!(
                        body,
                        "<details class=\"thinking\"><summary>Thinking</summary><div class=\"text\">{}</div></details>",
                        html_escape(thinking)
                    );
                }
                ContentBlock::Image { .. } => body.push_str("<div class=\"text\">[image]</div>\n"),
                ContentBlock::ToolUse { id, name, input }
                | ContentBlock::ServerToolUse { id, name, input } => {
                    let result = results.get(id.as_str());
                    let error = result.is_some_and(|(_, e)| *e);
                    let _ = writeln!(
                        body,
                        "<details class=\"tool{}\"><summary>{}</summary>",
                        if error { " error" } else { "" },
                        html_escape(&hints(name, input).title)
                    );
                    match diff_html(name, input) {
                        Some(diff) => {
                            let _ = writeln!(body, "<div>{diff}</div>");
                        }
                        None => {
                            let json = serde_json::to_string_pretty(input).unwrap_or_default();
                            let _ = writeln!(
                                body,
                                "<div><div class=\"label\">Input</div><pre>{}</pre></div>",
                                html_escape(&json)
                            );
                        }
                    }
                    match result {
                        Some((text, is_error)) => {
                            let _ = writeln!(
                                body,
                                "<div class=\"{}\"><div class=\"label\">{}</div><pre>{}</pre></div>",
                                if *is_error { "error" } else { "result" },
                                if *is_error { "Error" } else { "Result" },
                                html_escape(text)
                            );
                        }
                        None => body.push_str("<div class=\"label\">No result</div>\n"),
                    }
                    if let Some(chain) = chains.get(id.as_str()) {
                        let _ = writeln!(
                            body,
                            "<details class=\"agent\"><summary>Sub-agent {}: {}</summary><div>",
                            html_escape(&chain.agent_type),
                            html_escape(&chain.description)
                        );
                        messages(&mut body, &chain.messages, &HashMap::new());
                        body.push_str("</div></details>\n");
                    }
                    body.push_str("</details>\n");
                }
                _ => {}
            }
        }
        if !body.is_empty() {
            let _ = writeln!(
                out,
                "<section class=\"msg {class}\"><div class=\"who\">{who}</div>\n{body}</section>"
            );
        }
    }
}

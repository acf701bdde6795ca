//! `@path` mentions of files in the person's prompt: each file is read with the session's Read tool, as the model
//! would read it (line numbers, its size limits, binary files refused), and attached to the prompt. A mention is
//! read only when Read would be allowed without asking (the rules and mode allow it and no PreToolUse hook could
//! object); otherwise it stays plain text and a note says why. Words that name no file (`@alice`) stay as they are.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::json;
use tandem_protocol::DecisionBehavior;

use crate::hooks::HookEvent;
use crate::model::{ContentBlock, ResultBlock, ToolResultContent};
use crate::permission::{PermissionContext, check_call};
use crate::tool::{DynTool, FileStateStore, ToolContext, names};

/// The most characters of one file attached (the Read tool's own limits apply first).
const MAX_CHARS: usize = 100_000;

/// The path of every `@path` in `text`, in order and each once: `@` at the start or after a space or an opening
/// bracket, then a `"quoted path"` or the text up to the next space (trailing punctuation left out). `@name:…`
/// naming one of `servers` is an MCP resource, not a file.
pub fn find_file_mentions(text: &str, servers: &[String]) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for (_, path) in file_mention_spans(text, servers) {
        if !found.contains(&path) {
            found.push(path);
        }
    }
    found
}

/// Every `@path` of `text` as [`find_file_mentions`] finds them, with where each stands in `text` (the `@`, the
/// path and its quotes; repeats included).
pub fn file_mention_spans(text: &str, servers: &[String]) -> Vec<(std::ops::Range<usize>, String)> {
    let mut found = Vec::new();
    let mut previous = ' ';
    for (at, c) in text.char_indices() {
        let starts = c == '@' && (previous.is_whitespace() || matches!(previous, '(' | '['));
        previous = c;
        if !starts {
            continue;
        }
        let rest = &text[at + 1..];
        let (path, len) = if let Some(quoted) = rest.strip_prefix('"') {
            match quoted.split_once('"') {
                Some((path, _)) => (path, path.len() + 2),
                None => continue,
            }
        } else {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            let path = rest[..end].trim_end_matches(['.', ',', ';', '!', '?', ')', ']', '\'', ':']);
            (path, path.len())
        };
        if path.is_empty()
            || path
                .split_once(':')
                .is_some_and(|(server, _)| servers.iter().any(|s| s == server))
        {
            continue;
        }
        found.push((at..at + 1 + len, path.to_string()));
    }
    found
}

/// What the file mentions of a prompt gave: blocks to attach and notes for the person.
#[derive(Debug, Default)]
pub struct AttachedFiles {
    pub blocks: Vec<ContentBlock>,
    pub notes: Vec<String>,
}

/// The parts of a session a mention is read with.
pub struct MentionReader<'a> {
    pub cwd: &'a Path,
    pub permissions: &'a Arc<PermissionContext>,
    pub tools: &'a [Arc<dyn DynTool>],
    /// Where the read is recorded (so the model may edit a file it was given without reading it again).
    pub file_state: Arc<FileStateStore>,
}

impl MentionReader<'_> {
    /// Reads every mentioned file that exists and may be read without asking.
    pub async fn attach(&self, mentions: &[String]) -> AttachedFiles {
        let mut attached = AttachedFiles::default();
        for mention in mentions {
            let path = self.resolve(mention);
            if !path.exists() {
                continue;
            }
            if path.is_dir() {
                attached.notes.push(format!(
                    "@{mention} is a folder; only files are attached (the agent can list it)."
                ));
                continue;
            }
            if let Err(why) = self.may_read(&path) {
                attached
                    .notes
                    .push(format!("@{mention} was left as text: {why}"));
                continue;
            }
            match self.read(&path).await {
                Ok(mut blocks) => {
                    attached.blocks.push(ContentBlock::Text {
                        text: format!("[Attached @{mention}: {}]", path.display()),
                    });
                    attached.blocks.append(&mut blocks);
                }
                Err(why) => attached
                    .notes
                    .push(format!("@{mention} was not attached: {why}")),
            }
        }
        attached
    }

    pub(super) fn resolve(&self, mention: &str) -> PathBuf {
        let path = Path::new(mention);
        if path.is_absolute() {
            path.to_path_buf()
        } else {
            self.cwd.join(path)
        }
    }

    /// `Ok` when Read of `path` is allowed outright by the rules and mode and no PreToolUse hook could object.
    pub(super) fn may_read(&self, path: &Path) -> Result<(), String> {
        let answer = check_call(
            self.permissions,
            self.tools,
            names::READ,
            &json!({ "file_path": path.display().to_string() }),
        );
        match answer.decision {
            DecisionBehavior::Allow => {}
            DecisionBehavior::Ask => {
                return Err(format!(
                    "reading it needs your approval ({}); ask the agent to read it",
                    answer.reason
                ));
            }
            DecisionBehavior::Deny => {
                return Err(format!("reading it is denied ({})", answer.reason));
            }
        }
        let hooked = self
            .permissions
            .hooks
            .events
            .get(&HookEvent::PreToolUse)
            .is_some_and(|matchers| {
                matchers.iter().any(|m| {
                    !m.hooks.is_empty() && m.matches(HookEvent::PreToolUse, Some(names::READ))
                })
            });
        if hooked {
            return Err(
                "a PreToolUse hook checks reads here; ask the agent to read it so the hook runs"
                    .into(),
            );
        }
        Ok(())
    }

    async fn read(&self, path: &Path) -> Result<Vec<ContentBlock>, String> {
        let read = self
            .tools
            .iter()
            .find(|t| t.name() == names::READ)
            .ok_or("the Read tool is not available")?;
        let prepared = read.prepare(&json!({ "file_path": path.display().to_string() }))?;
        let ctx = ToolContext {
            working_dirs: self.permissions.working_dirs.clone(),
            file_state: self.file_state.clone(),
            read_denied: self.permissions.read_denier(names::READ),
            mode: self.permissions.mode,
            sandbox: self.permissions.sandbox.clone(),
            ..ToolContext::new(self.cwd.to_path_buf())
        };
        prepared.validate(&ctx).await?;
        let output = prepared.call(&ctx).await.map_err(|e| e.to_string())?;
        Ok(match output.content {
            ToolResultContent::Text(text) => vec![ContentBlock::Text { text: capped(text) }],
            ToolResultContent::Blocks(blocks) => blocks
                .into_iter()
                .map(|b| match b {
                    ResultBlock::Text { text } => ContentBlock::Text { text: capped(text) },
                    ResultBlock::Image { source } => ContentBlock::Image { source },
                })
                .collect(),
        })
    }
}

fn capped(text: String) -> String {
    if text.chars().count() <= MAX_CHARS {
        return text;
    }
    let mut cut: String = text.chars().take(MAX_CHARS).collect();
    cut.push_str(&format!(
        "\n[... cut: the first {MAX_CHARS} characters are attached; the agent can read the rest]"
    ));
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mentions_are_paths_after_an_at_sign() {
        let servers = vec!["docs".to_string()];
        let table: &[(&str, &[&str])] = &[
            ("explain @src/main.rs please", &["src/main.rs"]),
            ("@a.txt, and (@b.txt) twice @a.txt.", &["a.txt", "b.txt"]),
            (r#"read @"my notes/plan.md" now"#, &["my notes/plan.md"]),
            ("mail me@example.com", &[]),
            ("@docs:file:///x is a resource", &[]),
            ("@other:thing is a path", &["other:thing"]),
            ("a lone @ sign", &[]),
            (r#"@"unclosed quote"#, &[]),
        ];
        for (text, want) in table {
            assert_eq!(find_file_mentions(text, &servers), *want, "{text}");
        }
    }

    #[test]
    fn spans_cover_the_at_sign_the_path_and_its_quotes() {
        let table: &[(&str, &[&str])] = &[
            ("explain @src/main.rs please", &["@src/main.rs"]),
            (
                r#"read @"my notes/plan.md" now"#,
                &[r#"@"my notes/plan.md""#],
            ),
            ("(@b.txt) and @b.txt.", &["@b.txt", "@b.txt"]),
        ];
        for (text, want) in table {
            let spans: Vec<&str> = file_mention_spans(text, &[])
                .into_iter()
                .map(|(span, _)| &text[span])
                .collect();
            assert_eq!(spans, *want, "{text}");
        }
    }
}

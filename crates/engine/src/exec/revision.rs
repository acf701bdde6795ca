//! A file change the person revised in the diff dialog (some hunks rejected, or the proposed text edited): once the
//! tool has written its proposal, the file is written as the person left it (checkpointed, atomically, in the
//! file's encoding and line endings). The call's result then describes the file as written — the model's `cat -n`
//! snippet, the transcript's diff and hunks — and tells the model exactly how that differs from its proposal.

use std::path::PathBuf;

use similar::TextDiff;
use tandem_protocol::{FileRevision, Revision, ToolDetail};

use crate::model::ToolResultContent;
use crate::tool::{FileStateStore, ToolError, ToolOutput};
use crate::tools::file_io::{LineEnding, change, encoding, line_endings, patch, preview};
use crate::tools::read::number_lines;

/// The most lines of the written file the model is shown around the first change.
const SNIPPET_LINES: usize = 40;

/// A proposal the person approved in a revised form.
#[derive(Debug, Clone)]
pub(super) struct RevisedChange {
    /// The file (the read-state key the tool used).
    pub path: PathBuf,
    /// The file's text before the change (empty for a new file).
    pub original: String,
    /// Whether the change creates the file.
    pub created: bool,
    /// The file's text as the tool proposed it.
    pub proposed: String,
    pub revision: Revision,
    /// What the person said with the answer, if anything.
    pub message: Option<String>,
}

/// Writes the person's version over the tool's proposal and returns the tool's `output` rewritten to describe the
/// file as written. Fails (changing nothing) when the file no longer holds the proposal, is not text, or cannot be
/// written.
pub(super) fn apply(
    store: &FileStateStore,
    change_: &RevisedChange,
    output: ToolOutput,
) -> Result<ToolOutput, ToolError> {
    let written = write(store, change_)?;
    Ok(describe(change_, &written, output))
}

/// Writes the person's version (keeping the file's CRLF endings); returns the text written.
fn write(store: &FileStateStore, change_: &RevisedChange) -> Result<String, ToolError> {
    let _guard = store.write_guard();
    let mut lock = change::lock(&change_.path)?;
    let current = change::load(&change_.path)?;
    let bytes = current.bytes.clone().unwrap_or_default();
    let file = encoding::decode(bytes).map_err(|e| {
        ToolError::to_model(format!(
            "The change was made as you proposed it, but the user's revision could not be applied: {e}"
        ))
    })?;
    if file.text != change_.proposed {
        return Err(ToolError::to_model(format!(
            "The change was made as you proposed it, but the user's revision was not applied: {} changed in the \
             meantime. Read it again before changing it further.",
            change_.path.display()
        )));
    }
    let text = match line_endings::dominant(&file.text) {
        // A text box hands back bare line feeds; keep the file's CRLF endings.
        Some(LineEnding::CrLf) if !change_.revision.text.contains("\r\n") => {
            line_endings::apply(&change_.revision.text, LineEnding::CrLf).into_owned()
        }
        _ => change_.revision.text.clone(),
    };
    let bytes = encoding::encode(&text, file.encoding);
    change::commit(store, &mut lock, &current, &[&bytes])?;
    Ok(text)
}

/// The tool's output rewritten for the file as `written`: the model's text (a snippet of the file now, then the
/// note) and the file change's hunks and diff, marked as revised.
fn describe(change_: &RevisedChange, written: &str, mut output: ToolOutput) -> ToolOutput {
    let path = change_.path.display();
    let hunks = patch::hunks_of(&change_.original, written, 0);
    let summary = if written == change_.original {
        format!("The user accepted none of the change: {path} is as it was.")
    } else {
        let first = hunks.first().map_or(1, |h| h.new_start.max(1));
        let span = hunks
            .first()
            .map_or(1, |h| h.new_lines.max(1))
            .min(SNIPPET_LINES);
        let (snippet, _) = number_lines(written, first, span);
        let done = if change_.created {
            format!("The file {path} was created")
        } else {
            format!("The file {path} has been updated")
        };
        format!(
            "{done} with the parts of the change the user accepted. Here's the result of running `cat -n` on a \
             snippet of the file as it is now:\n{snippet}"
        )
    };
    output.content = ToolResultContent::Text(format!("{summary}\n{}", note(change_, written)));
    if let Some(serde_json::Value::Object(data)) = output.structured.as_mut() {
        revise_structured(data, &hunks, written);
    }
    if let Some(ToolDetail::FileChange {
        hunks: shown,
        diff,
        replacements,
        revised,
        ..
    }) = output.detail.as_mut()
    {
        *shown = hunks;
        *diff = preview::file_diff(&change_.path, &change_.original, written, change_.created);
        *replacements = None;
        *revised = Some(FileRevision {
            rejected_hunks: change_.revision.rejected_hunks.clone(),
            total_hunks: change_.revision.total_hunks,
            edited: change_.revision.edited,
        });
    }
    output
}

/// The result's data for the file as `written`: its patch, Write's `content`, and Edit's `userModified`.
fn revise_structured(
    data: &mut serde_json::Map<String, serde_json::Value>,
    hunks: &[tandem_protocol::DiffHunk],
    written: &str,
) {
    if let Ok(patch) = serde_json::to_value(crate::tools::responses::patch_of(hunks)) {
        data.insert("structuredPatch".into(), patch);
    }
    if data.contains_key("content") {
        data.insert("content".into(), written.into());
    }
    if data.contains_key("userModified") {
        data.insert("userModified".into(), true.into());
    }
}

/// What the model is told: which hunks were rejected, whether the text was edited, the difference between its
/// proposal and the file as written, and the person's message.
pub(super) fn note(change_: &RevisedChange, written: &str) -> String {
    let revision = &change_.revision;
    let mut what = Vec::new();
    if !revision.rejected_hunks.is_empty() {
        let list: Vec<String> = revision.rejected_hunks.iter().map(u32::to_string).collect();
        what.push(format!(
            "rejected {} {} of the {} in your proposal",
            if list.len() == 1 { "hunk" } else { "hunks" },
            list.join(", "),
            revision.total_hunks
        ));
    }
    if revision.edited {
        what.push("edited the proposed text".to_string());
    }
    let what = if what.is_empty() {
        "changed your proposal".to_string()
    } else {
        what.join(" and ")
    };
    let diff = TextDiff::from_lines(change_.proposed.as_str(), written)
        .unified_diff()
        .context_radius(2)
        .header("your proposal", "the file now")
        .to_string();
    let mut out = format!(
        "The user reviewed this change before accepting it and {what}. {} now differs from what you proposed:\n```diff\n{}```",
        change_.path.display(),
        diff
    );
    if let Some(message) = change_.message.as_deref().filter(|m| !m.trim().is_empty()) {
        out.push_str(&format!("\nThe user said: {message}"));
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_revised_change_gives_hooks_the_file_as_written() {
        let hunks = patch::hunks_of("a\nb\n", "a\nc\n", 0);
        let mut edit = json!({"filePath": "/p/f", "oldString": "b", "newString": "x",
            "originalFile": "a\nb\n", "structuredPatch": [], "userModified": false, "replaceAll": false});
        let mut write = json!({"type": "update", "filePath": "/p/f", "content": "a\nx\n",
            "structuredPatch": [], "originalFile": "a\nb\n"});
        for data in [&mut edit, &mut write] {
            let map = data.as_object_mut().expect("an object");
            revise_structured(map, &hunks, "a\nc\n");
            assert_eq!(
                data["structuredPatch"][0]["lines"],
                json!([" a", "-b", "+c"])
            );
            assert_eq!(data["originalFile"], "a\nb\n");
        }
        assert_eq!(edit["userModified"], true);
        assert!(edit.get("content").is_none());
        assert_eq!(write["content"], "a\nc\n");
        assert!(write.get("userModified").is_none());
    }
}

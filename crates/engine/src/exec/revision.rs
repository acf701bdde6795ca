//! A file change the person revised in the diff dialog (some hunks rejected, or the proposed text edited): once the
//! tool has written its proposal, the file is written as the person left it (checkpointed, atomically, in the
//! file's encoding and line endings), and the model is told exactly how the file differs from what it proposed.

use std::path::PathBuf;

use similar::TextDiff;
use tandem_protocol::Revision;

use crate::tool::{FileStateStore, ToolError};
use crate::tools::file_io::{LineEnding, change, encoding, line_endings};

/// A proposal the person approved in a revised form.
#[derive(Debug, Clone)]
pub(super) struct RevisedChange {
    /// The file (the read-state key the tool used).
    pub path: PathBuf,
    /// The file's text as the tool proposed it.
    pub proposed: String,
    pub revision: Revision,
    /// What the person said with the answer, if anything.
    pub message: Option<String>,
}

/// Writes the person's version over the tool's proposal and returns the note for the model. Fails (changing
/// nothing) when the file no longer holds the proposal, is not text, or cannot be written.
pub(super) fn apply(store: &FileStateStore, change_: &RevisedChange) -> Result<String, ToolError> {
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
    Ok(note(change_, &text))
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

//! After a file tool changed a file: what the session's language servers say the change broke, added to the
//! tool's result (see [`crate::tool::LanguageServers`]).

use std::path::Path;

use tandem_protocol::ToolDetail;

use crate::model::ToolResultContent;
use crate::tool::{ToolContext, ToolOutput};

/// A file's text before and after a change (`before: None`: the file is new).
#[derive(Debug, Clone)]
pub struct Changed {
    pub before: Option<String>,
    pub after: String,
}

/// `output` with the language servers' word on the change of `path` appended (and kept on its file-change detail,
/// for the edit's row in the window); `output` unchanged when the session
/// has no language servers or they have nothing to say.
pub async fn with_diagnostics(
    mut output: ToolOutput,
    ctx: &ToolContext,
    path: &Path,
    changed: Option<Changed>,
) -> ToolOutput {
    let (Some(servers), Some(changed)) = (ctx.file_state.language_servers(), changed) else {
        return output;
    };
    let note = servers
        .file_changed(
            path,
            changed.before.as_deref(),
            &changed.after,
            &ctx.cancel,
            ctx.mailbox.clone(),
        )
        .await;
    let Some(note) = note else {
        return output;
    };
    if let ToolResultContent::Text(text) = &mut output.content {
        text.push_str("\n\n");
        text.push_str(&note);
    }
    if let Some(ToolDetail::FileChange { diagnostics, .. }) = &mut output.detail {
        *diagnostics = Some(note);
    }
    output
}

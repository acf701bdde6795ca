//! The door through which the file tools tell the session's language servers about a change they made, and hear
//! back the errors that change introduced.

use std::path::Path;
use std::sync::Arc;

use super::Mailbox;

/// The session's language servers, as the file tools (Edit, Write) see them. Implemented above the tool contract
/// (`lsp::LspManager`); the file tools only call it, after the file is written.
///
/// Contract of [`LanguageServers::file_changed`]: it never fails and never hangs. It tells the server that handles
/// `path` (starting it on first use) about the new content and waits a bounded time for the server's diagnostics;
/// it returns a text for the model — the errors the change introduced (not those the file had before), or a notice
/// that the server is missing or crashed — or `None` when there is nothing to say. Errors the server publishes only
/// after the bound are posted to `late` (the agent sees them with its next request) when one is given. When
/// `cancel` fires it returns `None` at once.
#[async_trait::async_trait]
pub trait LanguageServers: Send + Sync + std::fmt::Debug {
    /// `path` (absolute) now holds `after`; it held `before` (`None`: the file is new).
    async fn file_changed(
        &self,
        path: &Path,
        before: Option<&str>,
        after: &str,
        cancel: &tokio_util::sync::CancellationToken,
        late: Option<Arc<Mailbox>>,
    ) -> Option<String>;
}

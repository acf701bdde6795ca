//! Errors as the webview receives them: `{code, message}`, with a code from a closed list.

use serde::Serialize;
use ts_rs::TS;

/// What went wrong, for the webview to tell cases apart.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq, TS)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The folder does not exist.
    FolderMissing,
    /// The path is not a folder.
    NotAFolder,
    /// The folder cannot be read.
    FolderUnreadable,
    /// The model could not be set up.
    Model,
    /// The session store failed or is not available.
    Store,
    /// No stored session has that id.
    UnknownSession,
    /// No open session has that id.
    NoSession,
    /// The question answered is no longer waiting.
    NoRequest,
    /// A rewind failed.
    Rewind,
    /// The folder's trust record could not be saved.
    Trust,
    /// The session's changes could not be read (a damaged checkpoint).
    Changes,
    /// The session is busy (a turn runs in it) and cannot be deleted now.
    SessionBusy,
    /// An MCP server action failed.
    Mcp,
    /// Merging or discarding a worktree failed (git's message).
    Worktree,
    /// A rule could not be added, removed or moved (an invalid rule, a file that is not JSON, ...).
    Rules,
    /// A hook could not be tried (an unknown event or hook).
    Hooks,
    /// A settings file could not be read or changed.
    Settings,
    /// The window missed events that are no longer kept (the session must be reopened).
    EventsMissed,
    /// A desktop notification could not be shown.
    Notification,
    /// A file the agent handed over could not be opened, or was not handed over in that session.
    OpenFile,
    /// An export or an import failed: an unknown format, a file that cannot be written, a folder that cannot be read.
    Carry,
    /// The usage report was asked for with a bad day.
    Usage,
    /// An image sent with a prompt cannot be sent (not an image, damaged, too large); nothing was sent.
    Image,
    /// The terminal panel could not do what was asked (switched off, not open, its shell could not start).
    Terminal,
    /// A hosted agent (of `agentServers`, or Tandem on another machine) could not be started or refused the session.
    Agent,
    /// The stored session reopened was run by an external agent: it goes on with that agent (`open_hosted_session`
    /// with `resume`), or with Tandem's own when asked so (`open_session` with `own_agent`).
    HostedSession,
}

impl ErrorCode {
    /// The wire name (as the webview receives it).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::FolderMissing => "folder_missing",
            Self::NotAFolder => "not_a_folder",
            Self::FolderUnreadable => "folder_unreadable",
            Self::Model => "model",
            Self::Store => "store",
            Self::UnknownSession => "unknown_session",
            Self::Trust => "trust",
            Self::Changes => "changes",
            Self::SessionBusy => "session_busy",
            Self::Mcp => "mcp",
            Self::Worktree => "worktree",
            Self::Rules => "rules",
            Self::Hooks => "hooks",
            Self::Settings => "settings",
            Self::NoSession => "no_session",
            Self::NoRequest => "no_request",
            Self::Rewind => "rewind",
            Self::EventsMissed => "events_missed",
            Self::Notification => "notification",
            Self::OpenFile => "open_file",
            Self::Carry => "carry",
            Self::Usage => "usage",
            Self::Image => "image",
            Self::Terminal => "terminal",
            Self::HostedSession => "hosted_session",
            Self::Agent => "agent",
        }
    }
}

/// An error returned by a command.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, TS)]
pub struct CommandError {
    pub code: ErrorCode,
    /// A message for the person.
    pub message: String,
}

impl CommandError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for CommandError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code.as_str(), self.message)
    }
}

impl From<tandem_engine::session::SessionError> for CommandError {
    fn from(e: tandem_engine::session::SessionError) -> Self {
        use tandem_engine::session::SessionError::*;
        let code = match &e {
            MissingFolder(_) => ErrorCode::FolderMissing,
            NotAFolder(_) => ErrorCode::NotAFolder,
            Unreadable { .. } => ErrorCode::FolderUnreadable,
            Model(_) => ErrorCode::Model,
            Store(_) => ErrorCode::Store,
            UnknownSession(_) => ErrorCode::UnknownSession,
        };
        Self::new(code, e.to_string())
    }
}

impl From<tandem_engine::tools::terminal_panel::PanelError> for CommandError {
    fn from(e: tandem_engine::tools::terminal_panel::PanelError) -> Self {
        Self::new(ErrorCode::Terminal, e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_logged_name_of_each_code_is_its_wire_name() {
        for code in [
            ErrorCode::FolderMissing,
            ErrorCode::NotAFolder,
            ErrorCode::FolderUnreadable,
            ErrorCode::Model,
            ErrorCode::Store,
            ErrorCode::UnknownSession,
            ErrorCode::NoSession,
            ErrorCode::NoRequest,
            ErrorCode::Rewind,
            ErrorCode::Rules,
            ErrorCode::Hooks,
            ErrorCode::Image,
            ErrorCode::Terminal,
            ErrorCode::Agent,
        ] {
            let wire = serde_json::to_value(code).expect("serialises");
            assert_eq!(wire, code.as_str());
            let shown = CommandError::new(code, "m").to_string();
            assert_eq!(shown, format!("{}: m", code.as_str()));
        }
    }
}

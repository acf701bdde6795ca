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
        write!(f, "{:?}: {}", self.code, self.message)
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

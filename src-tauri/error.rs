//! Errors as the webview receives them: `{code, message}`.

use serde::Serialize;

/// An error returned by a command.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct CommandError {
    /// A stable machine-readable code, e.g. `folder_missing`.
    pub code: &'static str,
    /// A message for the person.
    pub message: String,
}

impl CommandError {
    pub fn new(code: &'static str, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for CommandError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl From<tandem_engine::session::SessionError> for CommandError {
    fn from(e: tandem_engine::session::SessionError) -> Self {
        use tandem_engine::session::SessionError::*;
        let code = match &e {
            MissingFolder(_) => "folder_missing",
            NotAFolder(_) => "not_a_folder",
            Unreadable { .. } => "folder_unreadable",
            Model(_) => "model",
            Store(_) => "store",
            UnknownSession(_) => "unknown_session",
        };
        Self::new(code, e.to_string())
    }
}

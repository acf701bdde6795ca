//! Errors of a model request, classified so the loop can tell the user what to do.

/// A failed model request or stream.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ModelError {
    /// No API key is configured.
    #[error(
        "no API key: add one in Settings (in the window, click the model name in the status bar or choose File ▸ \
         Settings…; it is kept in the desktop keyring), or set ANTHROPIC_API_KEY in the environment"
    )]
    MissingApiKey,
    /// The server answered with an HTTP error.
    #[error("{}", describe_status(*status, kind, message))]
    Http {
        status: u16,
        kind: String,
        message: String,
        retryable: bool,
        retry_after_ms: Option<u64>,
    },
    /// The server sent an `error` event in the stream.
    #[error("the model stream reported an error ({kind}): {message}")]
    Stream { kind: String, message: String },
    /// The connection failed or the stream ended early.
    #[error("connection to the model failed: {0}")]
    Connection(String),
    /// The stream broke the protocol (malformed JSON, events out of order).
    #[error("the model stream was malformed: {0}")]
    Protocol(String),
    /// The configuration cannot make a request (a malformed base URL, a key that is not a valid header value):
    /// trying again cannot help.
    #[error("{0}")]
    Config(String),
    /// The request was cancelled.
    #[error("the request was cancelled")]
    Cancelled,
}

fn describe_status(status: u16, kind: &str, message: &str) -> String {
    let what = match status {
        400 => "the request was invalid",
        401 => "authentication failed: check your API key",
        403 => "the API key has no permission for this",
        404 => "not found: check the model name and base URL",
        413 => "the request was too large",
        429 => "rate limited by the model provider",
        500 => "the model provider had an internal error",
        529 => "the model provider is overloaded",
        _ => "the model request failed",
    };
    let detail = if message.is_empty() {
        String::new()
    } else {
        format!(": {message}")
    };
    format!("{what} (HTTP {status} {kind}){detail}")
}

impl ModelError {
    /// Whether the request may be tried again.
    pub fn is_retryable(&self) -> bool {
        match self {
            Self::Http { retryable, .. } => *retryable,
            Self::Stream { kind, .. } => kind == "overloaded_error" || kind == "api_error",
            _ => false,
        }
    }
}

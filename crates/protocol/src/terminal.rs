//! The window's terminal panel as the webview hears it: the shell's raw output to play in its terminal, and the
//! shell's end.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// One message on a terminal panel's channel.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TerminalChunk {
    /// Output to play as it came (escapes and all), base64 (a chunk may end inside a character). The first one
    /// redraws the screen as it is when the panel is opened.
    Output { data: String },
    /// The shell exited (how, in words).
    Exited { message: String },
}

/// A terminal panel as it was opened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct TerminalOpened {
    /// The shell running in it.
    pub shell: String,
    /// Whether a new shell was started (else the one still running was attached again).
    pub started: bool,
}

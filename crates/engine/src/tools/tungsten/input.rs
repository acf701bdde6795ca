//! The Tungsten tool's input as the model gives it: one action (`start`, `send`, `screen`, `stop`) and its fields,
//! with the limits on sizes and waits.

use schemars::JsonSchema;
use serde::Deserialize;

/// Rows of a terminal when none are given.
pub const DEFAULT_ROWS: u16 = 24;
/// Columns of a terminal when none are given.
pub const DEFAULT_COLS: u16 = 80;
/// The smallest and largest rows a terminal may have.
pub const ROWS_RANGE: (u16, u16) = (4, 200);
/// The smallest and largest columns a terminal may have.
pub const COLS_RANGE: (u16, u16) = (20, 400);
/// How long a wait lasts at most when no `timeout_ms` is given.
pub const DEFAULT_TIMEOUT_MS: u64 = 10_000;
/// The longest wait a call may ask for.
pub const MAX_TIMEOUT_MS: u64 = 120_000;

/// What to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    /// Start `command` in a new terminal; returns its id and first screen.
    Start,
    /// Type `keys` into terminal `id`, wait, and return the screen.
    Send,
    /// Return terminal `id`'s screen (waiting for `wait_for` first when given).
    Screen,
    /// Kill the program in terminal `id` and everything it started.
    Stop,
}

/// Drives an interactive terminal.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TungstenInput {
    /// `start`, `send`, `screen` or `stop`.
    pub action: Action,
    /// `start`: the command line to run (with `bash -c`), e.g. `python3 -q`, `vi notes.txt`, `top`.
    pub command: Option<String>,
    /// `start`: the directory to run it in (inside the project's working directories; default: the project root).
    pub cwd: Option<String>,
    /// `start`: the terminal's rows (default 24).
    pub rows: Option<u16>,
    /// `start`: the terminal's columns (default 80).
    pub cols: Option<u16>,
    /// `send`, `screen`, `stop`: the terminal's id, as `start` returned it.
    pub id: Option<String>,
    /// `send`: the keys to type (see the tool's description for the syntax of named keys such as `<Enter>`).
    pub keys: Option<String>,
    /// `start`, `send`, `screen`: a regular expression to wait for on the screen, instead of waiting until the
    /// output is quiet.
    pub wait_for: Option<String>,
    /// `start`, `send`, `screen`: the longest wait, in milliseconds (default 10000, at most 120000).
    pub timeout_ms: Option<u64>,
}

impl TungstenInput {
    /// The terminal's size, checked against the limits.
    pub fn size(&self) -> Result<(u16, u16), String> {
        let rows = self.rows.unwrap_or(DEFAULT_ROWS);
        let cols = self.cols.unwrap_or(DEFAULT_COLS);
        if !(ROWS_RANGE.0..=ROWS_RANGE.1).contains(&rows) {
            return Err(format!(
                "rows must be between {} and {}, not {rows}",
                ROWS_RANGE.0, ROWS_RANGE.1
            ));
        }
        if !(COLS_RANGE.0..=COLS_RANGE.1).contains(&cols) {
            return Err(format!(
                "cols must be between {} and {}, not {cols}",
                COLS_RANGE.0, COLS_RANGE.1
            ));
        }
        Ok((rows, cols))
    }

    /// The longest wait, clamped to [`MAX_TIMEOUT_MS`].
    pub fn timeout_ms(&self) -> u64 {
        self.timeout_ms
            .unwrap_or(DEFAULT_TIMEOUT_MS)
            .clamp(1, MAX_TIMEOUT_MS)
    }

    /// The command of a `start`, empty when none is given.
    pub fn command(&self) -> &str {
        self.command.as_deref().unwrap_or("")
    }
}

//! The numbers that bound MCP servers, with the environment variables the command-line agent reads:
//! `MCP_TIMEOUT` (start-up, ms), `MCP_TOOL_TIMEOUT` (one call, ms) and `MAX_MCP_OUTPUT_TOKENS` (a result longer
//! than this is saved to a file and the model gets a preview).

use std::time::Duration;

/// The largest single message accepted from a server (a bigger result is an error, not a hang).
pub const MAX_RESULT_BYTES: usize = 16 * 1024 * 1024;
/// How long a list or read request may take.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);
/// Characters per token, for the output limit.
const CHARS_PER_TOKEN: usize = 4;

/// The limits in force.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Connecting and `initialize`.
    pub startup: Duration,
    /// One tool call (`None`: no limit; an interrupt still ends it).
    pub tool_call: Option<Duration>,
    /// Results longer than this many tokens are persisted with a preview.
    pub max_output_tokens: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            startup: Duration::from_secs(30),
            tool_call: None,
            max_output_tokens: 25_000,
        }
    }
}

impl Limits {
    /// The defaults, changed by the environment variables that are set to a positive number.
    pub fn from_env() -> Self {
        Self::from_lookup(&|name| std::env::var(name).ok())
    }

    /// [`Self::from_env`] with another source of variables.
    pub fn from_lookup(lookup: &dyn Fn(&str) -> Option<String>) -> Self {
        let number = |name: &str| {
            lookup(name)
                .and_then(|v| v.trim().parse::<u64>().ok())
                .filter(|n| *n > 0)
        };
        let mut limits = Self::default();
        if let Some(ms) = number("MCP_TIMEOUT") {
            limits.startup = Duration::from_millis(ms);
        }
        if let Some(ms) = number("MCP_TOOL_TIMEOUT") {
            limits.tool_call = Some(Duration::from_millis(ms));
        }
        if let Some(tokens) = number("MAX_MCP_OUTPUT_TOKENS") {
            limits.max_output_tokens = usize::try_from(tokens).unwrap_or(usize::MAX);
        }
        limits
    }

    /// The output limit in characters.
    pub fn max_output_chars(&self) -> usize {
        self.max_output_tokens.saturating_mul(CHARS_PER_TOKEN)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn environment_variables_change_the_limits_and_junk_is_ignored() {
        let limits = Limits::from_lookup(&|name| match name {
            "MCP_TIMEOUT" => Some("1500".into()),
            "MCP_TOOL_TIMEOUT" => Some("junk".into()),
            "MAX_MCP_OUTPUT_TOKENS" => Some("100".into()),
            _ => None,
        });
        assert_eq!(limits.startup, Duration::from_millis(1500));
        assert_eq!(limits.tool_call, None);
        assert_eq!(limits.max_output_chars(), 400);
        assert_eq!(Limits::from_lookup(&|_| None), Limits::default());
    }
}

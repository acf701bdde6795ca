//! OverflowTest (behind [`crate::tools::features::OVERFLOW_TEST_ENV`]): a testing tool whose result is as large as
//! asked (`bytes` or `lines`), so that the path of results over a tool's limit — saved to a file, the model given a
//! preview — can be exercised end to end.

use schemars::JsonSchema;
use serde::Deserialize;
use tandem_protocol::{RenderHints, ToolKind};

use crate::tool::{PermissionSubject, Tool, ToolContext, ToolError, ToolOutput, names};

/// The largest result it makes, in bytes (lines are counted by what they come to).
pub const MAX_BYTES: u64 = 10 * 1024 * 1024;

/// How large a result to return.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OverflowTestInput {
    /// Return exactly this many bytes of text (numbered lines, the last cut to fit). Give this or `lines`.
    pub bytes: Option<u64>,
    /// Return this many numbered lines. Give this or `bytes`.
    pub lines: Option<u64>,
}

/// The OverflowTest tool.
#[derive(Debug, Clone, Copy, Default)]
pub struct OverflowTestTool;

/// Line `n` of the output (1-based), with its line end.
fn line(n: u64) -> String {
    format!("overflow test line {n:>8}: the quick brown fox jumps over the lazy dog\n")
}

/// The output of `lines` lines.
fn by_lines(lines: u64) -> String {
    (1..=lines).map(line).collect()
}

/// An output of exactly `bytes` bytes (ASCII): numbered lines, the last cut.
fn by_bytes(bytes: u64) -> String {
    let want = usize::try_from(bytes).unwrap_or(usize::MAX);
    let mut out = String::with_capacity(want);
    let mut n = 1;
    while out.len() < want {
        out.push_str(&line(n));
        n += 1;
    }
    out.truncate(want);
    out
}

impl Tool for OverflowTestTool {
    type Input = OverflowTestInput;

    fn name(&self) -> &'static str {
        names::OVERFLOW_TEST
    }

    fn description(&self) -> String {
        "A testing tool: returns a text output of the requested size (bytes, or lines of numbered text), to test \
         how large tool results are handled. It does nothing else."
            .into()
    }

    fn is_concurrency_safe(&self, _input: &OverflowTestInput) -> bool {
        true
    }

    fn is_read_only(&self, _input: &OverflowTestInput) -> bool {
        true
    }

    fn render_hints(&self, input: &OverflowTestInput, _ctx: &ToolContext) -> RenderHints {
        let size = match (input.bytes, input.lines) {
            (Some(b), _) => format!("{b} bytes"),
            (None, Some(l)) => format!("{l} lines"),
            (None, None) => "?".into(),
        };
        RenderHints {
            kind: ToolKind::Other,
            title: format!("OverflowTest {size}"),
            collapsible: true,
        }
    }

    fn permission_subject(
        &self,
        _input: &OverflowTestInput,
        _ctx: &ToolContext,
    ) -> PermissionSubject {
        PermissionSubject::SessionOwned
    }

    async fn validate_input(
        &self,
        input: &OverflowTestInput,
        _ctx: &ToolContext,
    ) -> Result<(), String> {
        let bytes = match (input.bytes, input.lines) {
            (Some(_), Some(_)) => return Err("give either bytes or lines, not both".into()),
            (None, None) => return Err("give bytes or lines".into()),
            (Some(bytes), None) => bytes,
            (None, Some(lines)) => lines.saturating_mul(line(1).len() as u64),
        };
        if bytes > MAX_BYTES {
            return Err(format!(
                "the output would be {bytes} bytes; at most {MAX_BYTES} are made"
            ));
        }
        Ok(())
    }

    async fn call(
        &self,
        input: &OverflowTestInput,
        _ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        Ok(ToolOutput::text(match (input.bytes, input.lines) {
            (Some(bytes), _) => by_bytes(bytes),
            (None, Some(lines)) => by_lines(lines),
            (None, None) => return Err(ToolError::to_model("give bytes or lines")),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outputs_have_the_size_asked_for() {
        let cases: &[(u64, usize)] = &[(0, 0), (1, 1), (70, 70), (150_000, 150_000)];
        for (bytes, want) in cases {
            assert_eq!(by_bytes(*bytes).len(), *want, "{bytes} bytes");
        }
        let three = by_lines(3);
        assert_eq!(three.lines().count(), 3);
        assert!(three.ends_with("line        3: the quick brown fox jumps over the lazy dog\n"));
        assert_eq!(by_lines(0), "");
    }
}

//! Text made safe to write into an export: control characters (but tab and newline) that tool output may carry are
//! shown as U+FFFD, and each format's own escaping.

use crate::model::{ContentBlock, ToolResultContent};

/// `text` with every control character except `\n` and `\t` replaced by U+FFFD (`\r\n` becomes `\n`).
pub fn printable(text: &str) -> String {
    let text = text.replace("\r\n", "\n");
    text.chars()
        .map(|c| {
            if c.is_control() && c != '\n' && c != '\t' {
                '\u{FFFD}'
            } else {
                c
            }
        })
        .collect()
}

/// `text` escaped for HTML element content and attribute values.
pub fn html_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for c in printable(text).chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            other => out.push(other),
        }
    }
    out
}

/// A Markdown code fence longer than any run of backticks in `text`.
pub fn fence_for(text: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        if c == '`' {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    "`".repeat((longest + 1).max(3))
}

/// The text of a tool result (images as `[image]`).
pub fn result_text(content: &ToolResultContent) -> String {
    content.as_text()
}

/// The tool results of a message by the call they answer: (text, is_error).
pub fn results_by_call(
    messages: &[crate::model::Message],
) -> std::collections::HashMap<String, (String, bool)> {
    let mut out = std::collections::HashMap::new();
    for message in messages {
        for block in &message.content {
            if let ContentBlock::ToolResult {
                tool_use_id,
                content,
                is_error,
            } = block
            {
                out.insert(tool_use_id.clone(), (result_text(content), *is_error));
            }
        }
    }
    out
}

/// Unix milliseconds as ISO 8601 UTC with milliseconds (`2025-05-26T07:27:40.079Z`).
pub fn iso_time(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .unwrap_or_default()
        .to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_replaced_and_html_is_escaped() {
        assert_eq!(
            printable("a\u{0}b\r\nc\td\u{1b}[0m"),
            "a\u{FFFD}b\nc\td\u{FFFD}[0m"
        );
        assert_eq!(
            html_escape("<script>\"x\" & 'y'</script>"),
            "&lt;script&gt;&quot;x&quot; &amp; &#39;y&#39;&lt;/script&gt;"
        );
        assert_eq!(fence_for("no ticks"), "```");
        assert_eq!(fence_for("a ```` b"), "`````");
        assert_eq!(iso_time(1_748_244_460_079), "2025-05-26T07:27:40.079Z");
    }
}

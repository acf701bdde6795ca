//! File changes drawn as unified diffs in HTML: Edit (old and new text), MultiEdit (each edit) and Write (the whole
//! new content), added and removed lines coloured by their class.

use std::fmt::Write;

use serde_json::Value;
use similar::{ChangeTag, TextDiff};

use super::clean::html_escape;

/// The diff of a file-changing call as HTML (`<pre class="diff">` blocks), or `None` for other calls.
pub fn diff_html(name: &str, input: &Value) -> Option<String> {
    let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_string);
    let path = text(input, "file_path").unwrap_or_default();
    let pairs: Vec<(String, String)> = match name {
        "Edit" => vec![(text(input, "old_string")?, text(input, "new_string")?)],
        "MultiEdit" => input
            .get("edits")?
            .as_array()?
            .iter()
            .filter_map(|e| Some((text(e, "old_string")?, text(e, "new_string")?)))
            .collect(),
        "Write" => vec![(String::new(), text(input, "content")?)],
        _ => return None,
    };
    let mut out = String::new();
    let _ = writeln!(out, "<div class=\"file\">{}</div>", html_escape(&path));
    for (old, new) in &pairs {
        out.push_str(&unified(old, new));
    }
    Some(out)
}

/// One unified diff, each line in a span of class `add`, `del`, `ctx` or `hunk`.
fn unified(old: &str, new: &str) -> String {
    let diff = TextDiff::from_lines(old, new);
    let mut out = String::from("<pre class=\"diff\">");
    for hunk in diff.unified_diff().context_radius(3).iter_hunks() {
        let _ = writeln!(
            out,
            "<span class=\"hunk\">{}</span>",
            html_escape(&hunk.header().to_string())
        );
        for change in hunk.iter_changes() {
            let (class, sign) = match change.tag() {
                ChangeTag::Delete => ("del", '-'),
                ChangeTag::Insert => ("add", '+'),
                ChangeTag::Equal => ("ctx", ' '),
            };
            let line = change.value().trim_end_matches('\n');
            let _ = writeln!(
                out,
                "<span class=\"{class}\">{sign}{}</span>",
                html_escape(line)
            );
        }
    }
    out.push_str("</pre>\n");
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn an_edit_shows_removed_and_added_lines_escaped() {
        let html = diff_html(
            "Edit",
            &json!({"file_path": "a<b>.rs", "old_string": "keep\nold <x>\n", "new_string": "keep\nnew & y\n"}),
        )
        .expect("an edit has a diff");
        assert!(
            html.contains("<span class=\"del\">-old &lt;x&gt;</span>"),
            "{html}"
        );
        assert!(
            html.contains("<span class=\"add\">+new &amp; y</span>"),
            "{html}"
        );
        assert!(html.contains("<span class=\"ctx\"> keep</span>"), "{html}");
        assert!(html.contains("a&lt;b&gt;.rs"), "{html}");
        let write =
            diff_html("Write", &json!({"file_path": "f", "content": "one\ntwo"})).expect("write");
        assert!(
            write.contains("+one") && write.contains("+two") && !write.contains("class=\"del\"")
        );
        assert_eq!(diff_html("Read", &json!({"file_path": "f"})), None);
    }
}

//! The YAML-ish frontmatter of an agent file: `---`, `key: value` lines (a value may be quoted, a `[a, b]` list, a
//! block of `- item` lines under an empty `key:`, or a nested block of indented `key:` lines under an empty `key:`,
//! kept as its text for a YAML reader), `---`, then the body.

/// One value of the frontmatter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    Text(String),
    List(Vec<String>),
    /// A nested block (indented `key:` lines), as written, dedented.
    Block(String),
}

impl Value {
    /// The value as a list: a list as it is, a text split at commas (`Read, Grep`), blanks dropped.
    pub fn items(&self) -> Vec<String> {
        match self {
            Self::List(items) => items.clone(),
            Self::Block(_) => Vec::new(),
            Self::Text(text) => text
                .split(',')
                .map(|s| unquote(s.trim()).to_string())
                .filter(|s| !s.is_empty())
                .collect(),
        }
    }

    /// The value as one text (a list joined with `, `).
    pub fn text(&self) -> String {
        match self {
            Self::Text(text) | Self::Block(text) => text.clone(),
            Self::List(items) => items.join(", "),
        }
    }
}

/// A parsed file: its keys in order, and the body after the frontmatter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    pub fields: Vec<(String, Value)>,
    pub body: String,
}

fn unquote(s: &str) -> &str {
    let quoted = |q: char| s.len() >= 2 && s.starts_with(q) && s.ends_with(q);
    if quoted('"') || quoted('\'') {
        &s[1..s.len() - 1]
    } else {
        s
    }
}

fn parse_value(raw: &str) -> Value {
    let raw = raw.trim();
    if let Some(inner) = raw.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        return Value::List(Value::Text(inner.to_string()).items());
    }
    Value::Text(unquote(raw).to_string())
}

/// Whether an indented line starts a nested mapping (`PreToolUse:`, `matcher: Bash`) rather than continuing a
/// folded text.
fn opens_mapping(trimmed: &str) -> bool {
    trimmed.split_once(':').is_some_and(|(key, rest)| {
        !key.is_empty()
            && key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
            && (rest.is_empty() || rest.starts_with(' '))
    })
}

/// Ends the nested block being read: it becomes the value of the key before it.
fn close_block(fields: &mut [(String, Value)], block: &mut Option<(usize, Vec<String>)>) {
    if let Some((_, lines)) = block.take()
        && let Some(last) = fields.last_mut()
    {
        last.1 = Value::Block(lines.join("\n").trim_end().to_string());
    }
}

/// Parses `text`; `Err` says what is wrong, with its line number.
pub fn parse(text: &str) -> Result<Document, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.lines().enumerate();
    match lines.next() {
        Some((_, first)) if first.trim_end() == "---" => {}
        _ => return Err("the file does not start with a `---` frontmatter block".into()),
    }
    let mut fields: Vec<(String, Value)> = Vec::new();
    let mut closed_at = None;
    // The indented lines of a nested block being read, with the indentation of its first line.
    let mut block: Option<(usize, Vec<String>)> = None;
    for (index, line) in lines.by_ref() {
        let number = index + 1;
        if line.trim_end() == "---" {
            closed_at = Some(index);
            break;
        }
        let indent = line.len() - line.trim_start().len();
        if let Some((depth, lines)) = block.as_mut() {
            if indent > 0 || line.trim().is_empty() {
                lines.push(line.get((*depth).min(indent)..).unwrap_or("").to_string());
                continue;
            }
            close_block(&mut fields, &mut block);
        }
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if indent > 0
            && opens_mapping(trimmed)
            && matches!(fields.last(), Some((_, Value::Text(t))) if t.is_empty())
        {
            block = Some((indent, vec![line[indent..].to_string()]));
            continue;
        }
        if let Some(item) = trimmed
            .strip_prefix("- ")
            .or(trimmed.strip_prefix('-').filter(|r| r.is_empty()))
        {
            match fields.last_mut() {
                Some((_, Value::List(items))) => {
                    items.push(unquote(item.trim()).to_string());
                    continue;
                }
                Some((_, Value::Text(t))) if t.is_empty() => {
                    let items = vec![unquote(item.trim()).to_string()];
                    if let Some(last) = fields.last_mut() {
                        last.1 = Value::List(items);
                    }
                    continue;
                }
                _ => return Err(format!("line {number}: a list item outside a list")),
            }
        }
        if line.starts_with([' ', '\t']) {
            // A continuation of the previous value (a folded description).
            match fields.last_mut() {
                Some((_, Value::Text(t))) => {
                    if !t.is_empty() {
                        t.push(' ');
                    }
                    t.push_str(trimmed);
                    continue;
                }
                _ => return Err(format!("line {number}: an indented line outside a value")),
            }
        }
        let Some((key, value)) = line.split_once(':') else {
            return Err(format!(
                "line {number}: expected `key: value`, found `{trimmed}`"
            ));
        };
        let key = key.trim();
        if key.is_empty() || key.contains(char::is_whitespace) {
            return Err(format!("line {number}: `{key}` is not a key"));
        }
        let value = value.trim();
        let value = if value == "|" || value == ">" {
            Value::Text(String::new())
        } else {
            parse_value(value)
        };
        fields.push((key.to_string(), value));
    }
    close_block(&mut fields, &mut block);
    let Some(closed_at) = closed_at else {
        return Err("the frontmatter block is not closed by a `---` line".into());
    };
    let body: Vec<&str> = text.lines().skip(closed_at + 1).collect();
    Ok(Document {
        fields,
        body: body.join("\n").trim().to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_lists_and_body() {
        let doc = parse(
            "---\nname: reviewer\ndescription: \"Reviews code\"\ntools: Read, Grep\ndisallowedTools: [Bash, Write]\nextra:\n  - a\n  - b\n---\nYou review.\n",
        )
        .expect("parses");
        assert_eq!(
            doc.fields[0],
            ("name".into(), Value::Text("reviewer".into()))
        );
        assert_eq!(doc.fields[1].1.text(), "Reviews code");
        assert_eq!(doc.fields[2].1.items(), vec!["Read", "Grep"]);
        assert_eq!(doc.fields[3].1.items(), vec!["Bash", "Write"]);
        assert_eq!(doc.fields[4].1.items(), vec!["a", "b"]);
        assert_eq!(doc.body, "You review.");
    }

    #[test]
    fn a_nested_block_is_kept_as_its_text() {
        let doc = parse(
            "---\nname: guarded\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: ./check.sh\ntools: Bash\n---\nBody.\n",
        )
        .expect("parses");
        assert_eq!(
            doc.fields[1],
            (
                "hooks".into(),
                Value::Block(
                    "PreToolUse:\n  - matcher: Bash\n    hooks:\n      - type: command\n        command: ./check.sh"
                        .into()
                )
            )
        );
        assert_eq!(doc.fields[2].1.items(), vec!["Bash"]);
        // A folded description stays text.
        let doc = parse("---\ndescription: Reviews\n  code carefully\n---\n").expect("parses");
        assert_eq!(doc.fields[0].1.text(), "Reviews code carefully");
    }

    #[test]
    fn broken_files_say_why() {
        assert!(parse("name: x\n").is_err());
        assert!(
            parse("---\nname: x\n")
                .expect_err("unclosed")
                .contains("not closed")
        );
        assert!(
            parse("---\nthis is not a key\n---\n")
                .expect_err("bad")
                .contains("line 2")
        );
    }
}

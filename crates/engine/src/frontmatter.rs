//! The frontmatter of agent, skill and command files: a `---` line, a YAML mapping (read with `yaml-rust2`), a `---`
//! line, then the body. A mapping YAML refuses only because a plain value holds `: ` or starts with a character
//! YAML reserves (`description: Use when: …`, as such files are often written) is read again with those values
//! quoted, so they stay text.

use serde_json::{Map, Value as Json};
use yaml_rust2::{Yaml, YamlLoader};

/// One value of the frontmatter.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A scalar (a number or a truth value as written; an empty value is empty text).
    Text(String),
    /// A list of scalars (`[a, b]`, or `- item` lines).
    List(Vec<String>),
    /// A nested mapping or a list that holds one (`hooks:`), as JSON.
    Block(Json),
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

    /// The value as one text (a list joined with `, `, a block as JSON).
    pub fn text(&self) -> String {
        match self {
            Self::Text(text) => text.clone(),
            Self::List(items) => items.join(", "),
            Self::Block(json) => json.to_string(),
        }
    }
}

/// A parsed file: its keys in order, and the body after the frontmatter.
#[derive(Debug, Clone, PartialEq)]
pub struct Document {
    pub fields: Vec<(String, Value)>,
    pub body: String,
}

impl Document {
    /// The value of `key`, if the frontmatter has it.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.fields.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// The text of `key` when it has some (blank text counts as absent).
    pub fn text(&self, key: &str) -> Option<String> {
        self.get(key)
            .map(Value::text)
            .filter(|t| !t.trim().is_empty())
    }
}

fn unquote(s: &str) -> &str {
    let quoted = |q: char| s.len() >= 2 && s.starts_with(q) && s.ends_with(q);
    if quoted('"') || quoted('\'') {
        &s[1..s.len() - 1]
    } else {
        s
    }
}

/// Parses `text`; `Err` says what is wrong, with its line number in the file.
pub fn parse(text: &str) -> Result<Document, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.lines();
    if lines.next().is_none_or(|first| first.trim_end() != "---") {
        return Err("the file does not start with a `---` frontmatter block".into());
    }
    let Some(closed_at) = lines.position(|line| line.trim_end() == "---") else {
        return Err("the frontmatter block is not closed by a `---` line".into());
    };
    let block: Vec<&str> = text.lines().skip(1).take(closed_at).collect();
    let body: Vec<&str> = text.lines().skip(closed_at + 2).collect();
    Ok(Document {
        fields: fields(&block.join("\n"))?,
        body: body.join("\n").trim().to_string(),
    })
}

/// The fields of the YAML between the `---` lines (which starts on the file's second line).
fn fields(block: &str) -> Result<Vec<(String, Value)>, String> {
    let documents = YamlLoader::load_from_str(block)
        .or_else(|first| YamlLoader::load_from_str(&quote_plain_values(block)).map_err(|_| first))
        .map_err(|e| format!("line {}: {}", e.marker().line() + 1, e.info()))?;
    let entries = match documents.into_iter().next() {
        None => return Ok(Vec::new()),
        Some(Yaml::Hash(entries)) => entries,
        Some(_) => {
            return Err("line 2: expected `key: value` lines".into());
        }
    };
    Ok(entries
        .into_iter()
        .filter_map(|(key, value)| Some((scalar(&key)?, field(&value))))
        .collect())
}

/// The `key: value` lines at the top whose plain value holds `: ` or starts with `@`, `` ` `` or `%`, with that
/// value in double quotes; every other line as it is.
fn quote_plain_values(block: &str) -> String {
    let quote = |line: &str| -> Option<String> {
        let (key, value) = line.split_once(": ")?;
        let value = value.trim();
        let plain_key = !key.is_empty()
            && key
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        let troubled = value.contains(": ") || value.starts_with(['@', '`', '%']);
        let quoted = value.starts_with(['"', '\'']);
        (plain_key && troubled && !quoted).then(|| {
            let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
            format!("{key}: \"{escaped}\"")
        })
    };
    block
        .lines()
        .map(|line| quote(line).unwrap_or_else(|| line.to_string()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A scalar as text (`None` for a list, a mapping, an alias or null).
fn scalar(yaml: &Yaml) -> Option<String> {
    match yaml {
        Yaml::String(text) | Yaml::Real(text) => Some(text.clone()),
        Yaml::Integer(n) => Some(n.to_string()),
        Yaml::Boolean(b) => Some(b.to_string()),
        _ => None,
    }
}

fn field(yaml: &Yaml) -> Value {
    match yaml {
        Yaml::Array(items) => match items.iter().map(scalar).collect::<Option<Vec<_>>>() {
            Some(items) => Value::List(items),
            None => Value::Block(to_json(yaml)),
        },
        Yaml::Hash(_) => Value::Block(to_json(yaml)),
        other => Value::Text(scalar(other).unwrap_or_default()),
    }
}

/// A YAML value as JSON (keys as text; aliases and bad values as null).
pub fn to_json(yaml: &Yaml) -> Json {
    match yaml {
        Yaml::Real(text) => text
            .parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
            .map_or(Json::Null, Json::Number),
        Yaml::Integer(n) => Json::from(*n),
        Yaml::String(text) => Json::String(text.clone()),
        Yaml::Boolean(b) => Json::Bool(*b),
        Yaml::Array(items) => Json::Array(items.iter().map(to_json).collect()),
        Yaml::Hash(entries) => {
            let mut map = Map::new();
            for (key, value) in entries {
                if let Some(key) = scalar(key) {
                    map.insert(key, to_json(value));
                }
            }
            Json::Object(map)
        }
        Yaml::Alias(_) | Yaml::Null | Yaml::BadValue => Json::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
        assert_eq!(doc.text("name").as_deref(), Some("reviewer"));
        assert_eq!(doc.text("missing"), None);
    }

    #[test]
    fn a_nested_block_is_kept_as_its_value() {
        let doc = parse(
            "---\nname: guarded\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: ./check.sh\ntools: Bash\n---\nBody.\n",
        )
        .expect("parses");
        assert_eq!(
            doc.fields[1],
            (
                "hooks".into(),
                Value::Block(json!({"PreToolUse": [{"matcher": "Bash", "hooks": [
                    {"type": "command", "command": "./check.sh"}
                ]}]}))
            )
        );
        assert_eq!(doc.fields[2].1.items(), vec!["Bash"]);
        // A folded description stays text.
        let doc = parse("---\ndescription: Reviews\n  code carefully\n---\n").expect("parses");
        assert_eq!(doc.fields[0].1.text(), "Reviews code carefully");
    }

    #[test]
    fn values_yaml_would_refuse_stay_text() {
        let doc = parse(
            "---\nname: helper\ndescription: Use when: the user asks \"why\"\nhint: @file\ntools: [Read]\n---\nBody\n",
        )
        .expect("parses");
        assert_eq!(
            doc.text("description").as_deref(),
            Some("Use when: the user asks \"why\"")
        );
        assert_eq!(doc.text("hint").as_deref(), Some("@file"));
        assert_eq!(doc.get("tools"), Some(&Value::List(vec!["Read".into()])));
        // Numbers and truth values read as written; an empty value is empty text.
        let doc = parse("---\nmaxTurns: 3\nflag: true\nempty:\n---\n").expect("parses");
        assert_eq!(doc.text("maxTurns").as_deref(), Some("3"));
        assert_eq!(doc.text("flag").as_deref(), Some("true"));
        assert_eq!(doc.get("empty"), Some(&Value::Text(String::new())));
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
        let broken = parse("---\nname: x\nhooks:\n  PreToolUse: [\n---\n").expect_err("bad YAML");
        assert!(broken.starts_with("line 5:"), "{broken}");
        assert_eq!(parse("---\n---\nBody").expect("empty").fields, Vec::new());
    }
}

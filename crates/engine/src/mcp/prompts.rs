//! Prompts MCP servers offer, as the person's slash commands `/mcp__<server>__<prompt> args`: the listing, the
//! arguments typed after the command bound to the prompt's declared arguments (in order, or `key=value`), and the
//! messages `prompts/get` returns turned into the content of the person's prompt.

use rmcp::model::{GetPromptResult, Prompt};
use serde_json::{Map, Value};

use super::content::content_block;
use super::names;
use crate::model::{ContentBlock, ResultBlock};

/// One argument a prompt declares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromptArgument {
    pub name: String,
    pub description: Option<String>,
    pub required: bool,
}

/// A prompt of a ready server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McpPrompt {
    /// The server's name as configured.
    pub server: String,
    /// The prompt's name on the server.
    pub remote: String,
    /// The command without its slash: `mcp__<server>__<prompt>` (normalised like tool names).
    pub command: String,
    pub description: String,
    pub arguments: Vec<PromptArgument>,
}

impl McpPrompt {
    /// A prompt from a `prompts/list` entry.
    pub fn from_listing(server: &str, listing: &Prompt) -> Self {
        let arguments = listing
            .arguments
            .iter()
            .flatten()
            .map(|a| PromptArgument {
                name: a.name.clone(),
                description: a.description.clone(),
                required: a.required == Some(true),
            })
            .collect();
        let description = listing
            .description
            .clone()
            .or_else(|| listing.title.clone())
            .unwrap_or_default();
        Self {
            server: server.to_string(),
            command: names::tool_name(server, &listing.name),
            remote: listing.name.clone(),
            description,
            arguments,
        }
    }

    /// How to call it: `/command <arg> [optional]`.
    pub fn usage(&self) -> String {
        let mut usage = format!("/{}", self.command);
        for arg in &self.arguments {
            if arg.required {
                usage.push_str(&format!(" <{}>", arg.name));
            } else {
                usage.push_str(&format!(" [{}]", arg.name));
            }
        }
        usage
    }

    /// The description the `/` menu shows: the server's description and the arguments.
    pub fn summary(&self) -> String {
        let args: Vec<&str> = self.arguments.iter().map(|a| a.name.as_str()).collect();
        let mut summary = format!("(MCP {}) {}", self.server, self.description)
            .trim_end()
            .to_string();
        if !args.is_empty() {
            summary.push_str(&format!(" — arguments: {}", args.join(", ")));
        }
        summary
    }

    /// Binds the words typed after the command to the declared arguments: `key=value` words name an argument;
    /// the others fill the remaining arguments in order, the last one taking the rest of the words. Words may be
    /// quoted with `"` or `'`. A missing required argument or a word too many is an error showing the usage.
    pub fn bind(&self, typed: &str) -> Result<Map<String, Value>, String> {
        let words = split_words(typed)?;
        let mut bound = Map::new();
        let mut positional = Vec::new();
        for word in words {
            match word.split_once('=') {
                Some((key, value)) if self.arguments.iter().any(|a| a.name == key) => {
                    bound.insert(key.to_string(), Value::String(value.to_string()));
                }
                _ => positional.push(word),
            }
        }
        let open: Vec<&PromptArgument> = self
            .arguments
            .iter()
            .filter(|a| !bound.contains_key(&a.name))
            .collect();
        if !positional.is_empty() && open.is_empty() {
            return Err(format!(
                "/{} takes no more arguments (got `{}`); usage: {}",
                self.command,
                positional.join(" "),
                self.usage()
            ));
        }
        let mut words = positional.into_iter();
        for (i, arg) in open.iter().enumerate() {
            let value = if i + 1 == open.len() {
                let rest: Vec<String> = words.by_ref().collect();
                (!rest.is_empty()).then(|| rest.join(" "))
            } else {
                words.next()
            };
            if let Some(value) = value {
                bound.insert(arg.name.clone(), Value::String(value));
            }
        }
        let missing: Vec<&str> = self
            .arguments
            .iter()
            .filter(|a| a.required && !bound.contains_key(&a.name))
            .map(|a| a.name.as_str())
            .collect();
        if !missing.is_empty() {
            return Err(format!(
                "/{} needs {}; usage: {}",
                self.command,
                missing
                    .iter()
                    .map(|m| format!("`{m}`"))
                    .collect::<Vec<_>>()
                    .join(", "),
                self.usage()
            ));
        }
        Ok(bound)
    }
}

/// Splits typed arguments into words; `"..."` and `'...'` keep spaces. An unclosed quote is an error.
fn split_words(typed: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in typed.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if let Some(q) = quote {
        return Err(format!("a quote ({q}) is not closed"));
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// The content of a `prompts/get` result: every message's content in order (the person sends it all as one
/// prompt, as the command-line agent does), images as images, embedded resources as their text.
pub fn prompt_content(result: &GetPromptResult) -> Vec<ContentBlock> {
    result
        .messages
        .iter()
        .map(|message| to_content(content_block(&message.content)))
        .collect()
}

/// A result block as a block of the person's message.
pub fn to_content(block: ResultBlock) -> ContentBlock {
    match block {
        ResultBlock::Text { text } => ContentBlock::Text { text },
        ResultBlock::Image { source } => ContentBlock::Image { source },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn prompt(args: Value) -> McpPrompt {
        let listing =
            serde_json::from_value(json!({"name": "p", "description": "d", "arguments": args}))
                .expect("a prompts/list entry");
        McpPrompt::from_listing("srv", &listing)
    }

    #[test]
    fn typed_words_bind_to_the_declared_arguments() {
        let two = prompt(json!([
            {"name": "who", "required": true},
            {"name": "style"}
        ]));
        let bind = |p: &McpPrompt, typed: &str| p.bind(typed).map(Value::Object);
        let table: &[(&McpPrompt, &str, Result<Value, &str>)] = &[
            (&two, "Ann", Ok(json!({"who": "Ann"}))),
            (
                &two,
                "Ann very warmly",
                Ok(json!({"who": "Ann", "style": "very warmly"})),
            ),
            (
                &two,
                "style=curt who=Bob",
                Ok(json!({"who": "Bob", "style": "curt"})),
            ),
            (
                &two,
                "style=curt Bob",
                Ok(json!({"who": "Bob", "style": "curt"})),
            ),
            (
                &two,
                "\"Ann Lee\" 'a b'",
                Ok(json!({"who": "Ann Lee", "style": "a b"})),
            ),
            (&two, "x=1", Ok(json!({"who": "x=1"}))),
            (&two, "", Err("needs `who`")),
            (&two, "style=curt", Err("needs `who`")),
            (&two, "\"open", Err("not closed")),
        ];
        for (p, typed, want) in table {
            let got = bind(p, typed);
            match (want, &got) {
                (Ok(w), Ok(g)) => assert_eq!(g, w, "{typed}"),
                (Err(w), Err(g)) => assert!(g.contains(w), "{typed}: {g}"),
                _ => panic!("{typed}: want {want:?}, got {got:?}"),
            }
        }
        let none = prompt(json!([]));
        assert!(none.bind("").is_ok());
        let extra = none.bind("surplus").expect_err("no arguments");
        assert!(extra.contains("usage: /mcp__srv__p"), "{extra}");
    }

    #[test]
    fn the_usage_and_summary_name_the_arguments() {
        let p = prompt(json!([{"name": "who", "required": true}, {"name": "style"}]));
        assert_eq!(p.usage(), "/mcp__srv__p <who> [style]");
        assert_eq!(p.summary(), "(MCP srv) d — arguments: who, style");
        assert_eq!(p.command, "mcp__srv__p");
    }

    #[test]
    fn messages_become_the_prompt_content() {
        let result = serde_json::from_value(json!({"messages": [
            {"role": "user", "content": {"type": "text", "text": "first"}},
            {"role": "assistant", "content": {"type": "image", "data": "AAAA", "mimeType": "image/png"}},
            {"role": "user", "content": {"type": "resource",
                "resource": {"uri": "x://r", "mimeType": "text/plain", "text": "inside"}}}
        ]}))
        .expect("a prompts/get result");
        let content = prompt_content(&result);
        assert_eq!(content.len(), 3);
        assert_eq!(
            content[0],
            ContentBlock::Text {
                text: "first".into()
            }
        );
        assert!(matches!(content[1], ContentBlock::Image { .. }));
        assert_eq!(
            content[2],
            ContentBlock::Text {
                text: "[Resource x://r]\ninside".into()
            }
        );
    }
}

//! Static evaluation of shell words: what a word expands to when it can be known without running anything.

use tree_sitter::Node;

use super::brace::{self, Mark, Marked};

/// The program's base name (`/usr/bin/rm` → `rm`).
pub fn base_name(program: &str) -> &str {
    program.rsplit('/').next().unwrap_or(program)
}

/// One word of a simple command, as written and (when knowable) as the shell would pass it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Word {
    /// The source text of the word.
    pub raw: String,
    /// The value after brace expansion and quote removal, when it contains no expansion or substitution.
    pub value: Option<String>,
    /// The word holds an unquoted glob character (`*`, `?`, `[`).
    pub glob: bool,
    /// The word starts with an unquoted `~`.
    pub tilde: bool,
    /// The word uses `$IFS` (a classic way to smuggle spaces).
    pub ifs: bool,
}

impl Word {
    /// A word known to be the literal `text`.
    pub fn literal(text: &str) -> Self {
        Self {
            raw: text.to_string(),
            value: Some(text.to_string()),
            ..Self::default()
        }
    }

    /// The value, or the source text when the value is not static.
    pub fn text(&self) -> &str {
        self.value.as_deref().unwrap_or(&self.raw)
    }

    /// Whether the word expands to a known value with no glob or tilde expansion left.
    pub fn is_static(&self) -> bool {
        self.value.is_some() && !self.glob
    }
}

/// Evaluates a word-like node of `src` as one word (a redirection target): a brace expansion into several words
/// leaves its value unknown (bash calls that an ambiguous redirect).
pub fn eval_word(node: Node<'_>, src: &[u8]) -> Word {
    let mut words = eval_words(node, src);
    if words.len() == 1 {
        return words.remove(0);
    }
    Word {
        raw: node_text(node, src).to_string(),
        ..Word::default()
    }
}

/// Evaluates a word-like node of `src` into the words the shell passes after brace expansion (several for
/// `{a,b}`, none for an unquoted expansion to nothing). A word whose brace expansion is too large is one word of
/// unknown value.
pub fn eval_words(node: Node<'_>, src: &[u8]) -> Vec<Word> {
    let raw = node_text(node, src).to_string();
    let mut marked = Marked::new();
    let mut ifs = false;
    eval_into(node, src, &mut marked, &mut ifs);
    let Some(expanded) = brace::expand(&marked) else {
        return vec![Word {
            raw,
            ifs,
            ..Word::default()
        }];
    };
    if expanded.is_empty() && marked.is_empty() && raw.contains(['\'', '"']) {
        // Quotes around nothing (`''`, `""`) make an empty argument; only an unquoted nothing is dropped.
        return vec![Word {
            raw,
            value: Some(String::new()),
            ifs,
            ..Word::default()
        }];
    }
    let single = expanded.len() == 1;
    expanded
        .into_iter()
        .map(|chars| {
            let mut word = word_of(&chars, ifs);
            if single {
                word.raw = raw.clone();
            }
            word
        })
        .collect()
}

/// A word from its marked characters.
fn word_of(chars: &[(char, Mark)], ifs: bool) -> Word {
    let text: String = chars.iter().map(|(c, _)| c).collect();
    let opaque = chars.iter().any(|(_, m)| *m == Mark::Opaque);
    Word {
        raw: text.clone(),
        value: (!opaque).then_some(text),
        glob: chars
            .iter()
            .any(|(c, m)| *m == Mark::Plain && matches!(c, '*' | '?' | '[')),
        tilde: chars.first() == Some(&('~', Mark::Plain)),
        ifs,
    }
}

/// The text of a node (empty when it is not UTF-8).
pub fn node_text<'a>(node: Node<'_>, src: &'a [u8]) -> &'a str {
    std::str::from_utf8(&src[node.byte_range()]).unwrap_or("")
}

fn push(out: &mut Marked, text: &str, mark: Mark) {
    out.extend(text.chars().map(|c| (c, mark)));
}

fn eval_into(node: Node<'_>, src: &[u8], out: &mut Marked, ifs: &mut bool) {
    let text = node_text(node, src);
    match node.kind() {
        "word" | "number" if node.named_child_count() == 0 => unquoted(text, out),
        "brace_expression" => push(out, text, Mark::Plain),
        "raw_string" => push(
            out,
            text.get(1..text.len().saturating_sub(1)).unwrap_or(""),
            Mark::Quoted,
        ),
        "ansi_c_string" => {
            let mut decoded = String::new();
            ansi_c(
                text.get(2..text.len().saturating_sub(1)).unwrap_or(""),
                &mut decoded,
            );
            // A NUL ends the string in bash: what it passes is not what was written.
            let mark = if decoded.contains('\0') {
                Mark::Opaque
            } else {
                Mark::Quoted
            };
            push(out, &decoded, mark);
        }
        "string" | "translated_string" => {
            for i in 0..node.named_child_count() {
                if let Some(child) = node.named_child(i) {
                    match child.kind() {
                        "string_content" => {
                            let mut s = String::new();
                            double_quoted(node_text(child, src), &mut s);
                            push(out, &s, Mark::Quoted);
                        }
                        "string" => eval_into(child, src, out, ifs),
                        _ => {
                            note_ifs(child, src, ifs);
                            push(out, node_text(child, src), Mark::Opaque);
                        }
                    }
                }
            }
        }
        "concatenation" => {
            let mut cursor = node.walk();
            for child in node.children(&mut cursor) {
                if child.is_named() {
                    eval_into(child, src, out, ifs);
                } else {
                    // Unnamed pieces of a concatenation (such as a bare `$`) are not taken literally.
                    push(out, node_text(child, src), Mark::Opaque);
                }
            }
        }
        _ => {
            note_ifs(node, src, ifs);
            push(out, text, Mark::Opaque);
        }
    }
}

fn note_ifs(node: Node<'_>, src: &[u8], ifs: &mut bool) {
    let text = node_text(node, src);
    if text == "$IFS" || text.starts_with("${IFS") {
        *ifs = true;
    }
}

/// Unquoted text: backslash escapes quote the next character, a backslash-newline disappears.
fn unquoted(text: &str, out: &mut Marked) {
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('\n') | None => {}
                Some(next) => out.push((next, Mark::Quoted)),
            },
            _ => out.push((c, Mark::Plain)),
        }
    }
}

/// Text inside double quotes: only `\"`, `\\`, `\$`, `` \` `` and backslash-newline are escapes.
fn double_quoted(text: &str, out: &mut String) {
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.peek() {
                Some('"' | '\\' | '$' | '`') => {
                    if let Some(n) = chars.next() {
                        out.push(n);
                    }
                }
                Some('\n') => {
                    chars.next();
                }
                _ => out.push(c),
            }
        } else {
            out.push(c);
        }
    }
}

/// The body of a `$'...'` string with its escapes decoded.
fn ansi_c(text: &str, out: &mut String) {
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(e) = chars.next() else {
            out.push('\\');
            break;
        };
        match e {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'r' => out.push('\r'),
            'a' => out.push('\x07'),
            'b' => out.push('\x08'),
            'e' | 'E' => out.push('\x1b'),
            'f' => out.push('\x0c'),
            'v' => out.push('\x0b'),
            'x' | 'u' | 'U' => {
                let max = match e {
                    'x' => 2,
                    'u' => 4,
                    _ => 8,
                };
                let mut n = 0u32;
                let mut digits = 0;
                while digits < max {
                    match chars.peek().and_then(|d| d.to_digit(16)) {
                        Some(d) => {
                            n = n * 16 + d;
                            chars.next();
                            digits += 1;
                        }
                        None => break,
                    }
                }
                if digits == 0 {
                    out.push('\\');
                    out.push(e);
                } else if let Some(ch) = char::from_u32(n) {
                    out.push(ch);
                }
            }
            '0'..='7' => {
                let mut n = e.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match chars.peek().and_then(|d| d.to_digit(8)) {
                        Some(d) => {
                            n = n * 8 + d;
                            chars.next();
                        }
                        None => break,
                    }
                }
                if let Some(ch) = char::from_u32(n) {
                    out.push(ch);
                }
            }
            'c' => {
                if let Some(ctrl) = chars.next() {
                    out.push(char::from((ctrl as u8) & 0x1f));
                }
            }
            other => out.push(other),
        }
    }
}

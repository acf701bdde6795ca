//! Static evaluation of shell words: what a word expands to when it can be known without running anything.

use tree_sitter::Node;

/// One word of a simple command, as written and (when knowable) as the shell would pass it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Word {
    /// The source text of the word.
    pub raw: String,
    /// The value after quote removal, when it contains no expansion, substitution or brace expansion.
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

/// Evaluates a word-like node of `src`.
pub fn eval_word(node: Node<'_>, src: &[u8]) -> Word {
    let raw = node_text(node, src).to_string();
    let mut word = Word {
        raw,
        ..Word::default()
    };
    let mut value = String::new();
    let ok = eval_into(node, src, &mut value, &mut word, true);
    if ok {
        word.value = Some(value);
    }
    word
}

/// The text of a node (empty when it is not UTF-8).
pub fn node_text<'a>(node: Node<'_>, src: &'a [u8]) -> &'a str {
    std::str::from_utf8(&src[node.byte_range()]).unwrap_or("")
}

fn eval_into(node: Node<'_>, src: &[u8], out: &mut String, word: &mut Word, first: bool) -> bool {
    let text = node_text(node, src);
    match node.kind() {
        "word" | "number" if node.named_child_count() == 0 => {
            unquoted(text, out, word, first);
            !has_brace_expansion(text)
        }
        "raw_string" => {
            out.push_str(text.get(1..text.len().saturating_sub(1)).unwrap_or(""));
            true
        }
        "ansi_c_string" => {
            ansi_c(text.get(2..text.len().saturating_sub(1)).unwrap_or(""), out);
            true
        }
        "string" | "translated_string" => {
            let mut ok = true;
            for i in 0..node.named_child_count() {
                if let Some(child) = node.named_child(i) {
                    match child.kind() {
                        "string_content" => double_quoted(node_text(child, src), out),
                        "string" => ok &= eval_into(child, src, out, word, false),
                        _ => {
                            note_ifs(child, src, word);
                            ok = false;
                        }
                    }
                }
            }
            ok
        }
        "concatenation" => {
            let mut ok = true;
            let mut is_first = first;
            for i in 0..node.named_child_count() {
                if let Some(child) = node.named_child(i) {
                    ok &= eval_into(child, src, out, word, is_first);
                    is_first = false;
                }
            }
            // Unnamed pieces of a concatenation (such as a bare `$`) are literal text.
            ok && node.child_count() == node.named_child_count()
        }
        "simple_expansion" | "expansion" => {
            note_ifs(node, src, word);
            false
        }
        _ => false,
    }
}

fn note_ifs(node: Node<'_>, src: &[u8], word: &mut Word) {
    let text = node_text(node, src);
    if text == "$IFS" || text.starts_with("${IFS") {
        word.ifs = true;
    }
}

/// Unquoted text: backslash escapes removed, glob and tilde noted.
fn unquoted(text: &str, out: &mut String, word: &mut Word, first: bool) {
    if first && text.starts_with('~') {
        word.tilde = true;
    }
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('\n') | None => {}
                Some(next) => out.push(next),
            },
            '*' | '?' | '[' => {
                word.glob = true;
                out.push(c);
            }
            _ => out.push(c),
        }
    }
}

/// Whether unquoted text holds a brace expansion such as `{a,b}` or `{1..3}`.
fn has_brace_expansion(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 1,
            b'{' => {
                let rest = &text[i + 1..];
                if let Some(end) = rest.find('}') {
                    let inner = &rest[..end];
                    if inner.contains(',') || inner.contains("..") {
                        return true;
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    false
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

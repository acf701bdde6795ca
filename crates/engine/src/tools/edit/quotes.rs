//! Keeping the file's quote style: when `old_string` only matched after curly quotes were treated as straight
//! ones, the straight quotes of `new_string` become the file's curly quotes (opening or closing by position, an
//! apostrophe inside a word as ’).

/// Curly-quote kinds the matched text of the file uses.
#[derive(Debug, Clone, Copy, Default)]
pub struct QuoteStyle {
    pub curly_double: bool,
    pub curly_single: bool,
}

impl QuoteStyle {
    /// The style of the text a tolerant match found in the file.
    pub fn of(matched: &str) -> Self {
        Self {
            curly_double: matched.contains(['\u{201C}', '\u{201D}']),
            curly_single: matched.contains(['\u{2018}', '\u{2019}']),
        }
    }
}

fn opens(prev: Option<char>) -> bool {
    match prev {
        None => true,
        Some(p) => {
            p.is_whitespace() || matches!(p, '(' | '[' | '{' | '\u{2014}' | '\u{2013}' | '-')
        }
    }
}

/// `text` with its straight quotes made curly where `style` says the file uses curly ones.
pub fn apply(text: &str, style: QuoteStyle) -> String {
    if !style.curly_double && !style.curly_single {
        return text.to_string();
    }
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len() + 8);
    for (i, &c) in chars.iter().enumerate() {
        let prev = i.checked_sub(1).map(|j| chars[j]);
        let next = chars.get(i + 1).copied();
        match c {
            '"' if style.curly_double => {
                out.push(if opens(prev) { '\u{201C}' } else { '\u{201D}' })
            }
            '\'' if style.curly_single => {
                let in_word = prev.is_some_and(char::is_alphanumeric)
                    && next.is_some_and(char::is_alphanumeric);
                out.push(if !in_word && opens(prev) {
                    '\u{2018}'
                } else {
                    '\u{2019}'
                });
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn curls_new_text_like_the_file() {
        let style = QuoteStyle::of("\u{201C}a\u{201D} \u{2018}b\u{2019}");
        assert_eq!(
            apply("say \"it's\" 'x'", style),
            "say \u{201C}it\u{2019}s\u{201D} \u{2018}x\u{2019}"
        );
    }
}

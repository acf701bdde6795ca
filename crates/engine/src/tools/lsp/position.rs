//! Positions as the model gives them (1-based line and character, characters as Read shows them) and as the
//! protocol wants them (0-based line, UTF-16 code units).

use lsp_types::Position;

/// The protocol position of 1-based `line` and `character` in `text`; `None` when the line does not exist. A
/// character past the end of the line is taken as the line's end.
pub fn to_lsp(text: &str, line: u32, character: u32) -> Option<Position> {
    let index = usize::try_from(line.checked_sub(1)?).ok()?;
    let content = line_text(text, index)?;
    let chars = usize::try_from(character.saturating_sub(1)).unwrap_or(usize::MAX);
    let units: usize = content.chars().take(chars).map(char::len_utf16).sum();
    Some(Position::new(
        u32::try_from(index).ok()?,
        u32::try_from(units).ok()?,
    ))
}

/// The identifier at (or just before) 1-based `line` and `character`.
pub fn word_at(text: &str, line: u32, character: u32) -> Option<String> {
    let content = line_text(text, usize::try_from(line.checked_sub(1)?).ok()?)?;
    let chars: Vec<char> = content.chars().collect();
    let is_word = |c: &char| c.is_alphanumeric() || *c == '_' || *c == '$';
    let at = usize::try_from(character.saturating_sub(1))
        .ok()?
        .min(chars.len());
    let start = chars[..at].iter().rev().take_while(|c| is_word(c)).count();
    let end = chars[at..].iter().take_while(|c| is_word(c)).count();
    let word: String = chars[at - start..at + end].iter().collect();
    (!word.is_empty()).then_some(word)
}

fn line_text(text: &str, index: usize) -> Option<&str> {
    if text.is_empty() && index == 0 {
        return Some("");
    }
    text.split('\n')
        .nth(index)
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_based_characters_become_utf16_offsets() {
        let text = "a = 1\r\né😀x = 2\n";
        let cases = [
            ((1, 1), Some((0, 0))),
            ((1, 5), Some((0, 4))),
            ((2, 3), Some((1, 3))), // é is one unit, 😀 two
            ((2, 99), Some((1, 8))),
            ((3, 1), Some((2, 0))),
            ((4, 1), None),
            ((0, 1), None),
        ];
        for ((line, character), want) in cases {
            let got = to_lsp(text, line, character).map(|p| (p.line, p.character));
            assert_eq!(got, want, "{line}:{character}");
        }
    }

    #[test]
    fn the_word_at_a_position() {
        let text = "def add_one(x):\n    return x";
        assert_eq!(word_at(text, 1, 6).as_deref(), Some("add_one"));
        assert_eq!(word_at(text, 1, 12).as_deref(), Some("add_one"));
        assert_eq!(word_at(text, 2, 1), None);
    }
}

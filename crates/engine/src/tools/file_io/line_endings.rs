//! Line endings: finding a file's style and giving new text the same one, so that a CRLF file stays CRLF and the
//! lines an edit does not touch keep whatever ending they had.

/// A line-ending style.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineEnding {
    Lf,
    CrLf,
}

/// Counts (CRLF, bare LF) line endings in `text`.
pub fn count(text: &str) -> (usize, usize) {
    let bytes = text.as_bytes();
    let mut crlf = 0;
    let mut lf = 0;
    for i in memchr::memchr_iter(b'\n', bytes) {
        if i > 0 && bytes[i - 1] == b'\r' {
            crlf += 1;
        } else {
            lf += 1;
        }
    }
    (crlf, lf)
}

/// The style most lines of `text` use; `None` when it has no line break.
pub fn dominant(text: &str) -> Option<LineEnding> {
    match count(text) {
        (0, 0) => None,
        (crlf, lf) if crlf > lf => Some(LineEnding::CrLf),
        _ => Some(LineEnding::Lf),
    }
}

/// Gives `text` the `style`: with CRLF every bare `\n` becomes `\r\n`; with LF nothing changes (a `\r\n` the
/// caller wrote on purpose is left alone).
pub fn apply(text: &str, style: LineEnding) -> std::borrow::Cow<'_, str> {
    match style {
        LineEnding::Lf => std::borrow::Cow::Borrowed(text),
        LineEnding::CrLf => {
            let (_, bare) = count(text);
            if bare == 0 {
                return std::borrow::Cow::Borrowed(text);
            }
            let mut out = String::with_capacity(text.len() + bare);
            let mut prev = '\0';
            for c in text.chars() {
                if c == '\n' && prev != '\r' {
                    out.push('\r');
                }
                out.push(c);
                prev = c;
            }
            std::borrow::Cow::Owned(out)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn applies_crlf_only_to_bare_newlines() {
        assert_eq!(apply("a\nb\r\nc", LineEnding::CrLf), "a\r\nb\r\nc");
        assert_eq!(apply("a\nb", LineEnding::Lf), "a\nb");
        assert_eq!(dominant("a\r\nb\r\nc\n"), Some(LineEnding::CrLf));
        assert_eq!(dominant("abc"), None);
    }
}

//! Finding `old_string` in a file: exactly first; failing that, tolerantly, where curly and straight quotes are the
//! same and a `\n` in the search text also matches a `\r\n` in the file. Matches are byte ranges of the original
//! text, so that everything outside them is left exactly as it was.

use std::ops::Range;

/// How the matches were found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchKind {
    Exact,
    /// Only after treating curly quotes as straight ones and CRLF as LF.
    Tolerant,
}

/// Non-overlapping exact occurrences of `needle` (not empty) in `hay`, left to right.
pub fn find_exact(hay: &str, needle: &str) -> Vec<Range<usize>> {
    memchr::memmem::find_iter(hay.as_bytes(), needle.as_bytes())
        .scan(0usize, |next_free, start| {
            if start < *next_free {
                return Some(None);
            }
            *next_free = start + needle.len();
            Some(Some(start..start + needle.len()))
        })
        .flatten()
        .collect()
}

fn fold_char(c: char) -> char {
    match c {
        '\u{2018}' | '\u{2019}' => '\'',
        '\u{201C}' | '\u{201D}' => '"',
        other => other,
    }
}

/// `text` with quotes folded and every `\r\n` made `\n`.
pub fn normalise(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\r' && chars.peek() == Some(&'\n') {
            continue;
        }
        out.push(fold_char(c));
    }
    out
}

/// Maps sorted byte offsets of `normalise(text)` back to byte offsets of `text`. An offset maps to the start of
/// the original character (for a folded `\r\n`, the `\r`), so ranges never split a line ending.
fn map_back(text: &str, sorted: &[usize]) -> Vec<usize> {
    let mut out = Vec::with_capacity(sorted.len());
    let mut want = sorted.iter().copied().peekable();
    let mut norm = 0usize;
    let bytes = text.as_bytes();
    for (orig, c) in text.char_indices() {
        while want.peek() == Some(&norm) {
            out.push(orig);
            want.next();
        }
        if c == '\r' && bytes.get(orig + 1) == Some(&b'\n') {
            continue;
        }
        norm += fold_char(c).len_utf8();
    }
    while want.next().is_some() {
        out.push(text.len());
    }
    out
}

/// The matches of `needle` in `hay`: exact ones if there are any, else tolerant ones.
pub fn find(hay: &str, needle: &str) -> (Vec<Range<usize>>, MatchKind) {
    let exact = find_exact(hay, needle);
    if !exact.is_empty() {
        return (exact, MatchKind::Exact);
    }
    let norm_needle = normalise(needle);
    if norm_needle.is_empty() {
        return (Vec::new(), MatchKind::Exact);
    }
    let norm_hay = normalise(hay);
    let found = find_exact(&norm_hay, &norm_needle);
    if found.is_empty() {
        return (Vec::new(), MatchKind::Exact);
    }
    let offsets: Vec<usize> = found.iter().flat_map(|r| [r.start, r.end]).collect();
    let mapped = map_back(hay, &offsets);
    let ranges = mapped.chunks_exact(2).map(|p| p[0]..p[1]).collect();
    (ranges, MatchKind::Tolerant)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_matches_do_not_overlap() {
        assert_eq!(find_exact("aaaa", "aa"), vec![0..2, 2..4]);
    }

    #[test]
    fn tolerant_matches_map_back_to_the_original() {
        let hay = "say \u{201C}hi\u{201D}\r\nnext\r\n";
        let (m, kind) = find(hay, "say \"hi\"\nnext");
        assert_eq!(kind, MatchKind::Tolerant);
        assert_eq!(&hay[m[0].clone()], "say \u{201C}hi\u{201D}\r\nnext");
        let (m, _) = find("a\r\nb\r\n", "a");
        assert_eq!(m, vec![0..1]);
        let (m, _) = find("x\r\ny\r\n", "x\n");
        assert_eq!(m, vec![0..3]);
    }
}

//! How Read shows lines: numbered like `cat -n`, long lines cut, the whole output capped. Used by the text scan
//! (`lines`), by `text` and by Edit's snippet of the changed lines.

/// Longer lines are cut to this many characters.
pub const MAX_LINE_CHARS: usize = 2000;
/// The numbered output stops after this many bytes (about 25,000 tokens); the model reads on with `offset`. Read
/// bounds itself this way and its results are never saved to a file instead (see `max_result_size_chars`).
pub(super) const MAX_OUTPUT_BYTES: usize = 90_000;

/// Appends line `n` as `cat -n` shows it: the right-aligned number, a tab, the line (cut when too long).
pub(super) fn push_numbered(out: &mut String, n: usize, line: &str) {
    out.push_str(&format!("{n:>6}\t"));
    match line.char_indices().nth(MAX_LINE_CHARS) {
        Some((cut, _)) => {
            out.push_str(&line[..cut]);
            out.push_str("… [line truncated]");
        }
        None => out.push_str(line),
    }
    out.push('\n');
}

/// Formats lines as `cat -n` does: right-aligned numbers, a tab, the line (its `\r` dropped, cut when too long).
/// Returns the text and the number of lines shown.
pub fn number_lines(text: &str, first_line: usize, limit: usize) -> (String, usize) {
    let mut out = String::new();
    let mut count = 0;
    for (i, line) in text
        .lines()
        .enumerate()
        .skip(first_line.saturating_sub(1))
        .take(limit)
    {
        if out.len() > MAX_OUTPUT_BYTES {
            break;
        }
        push_numbered(&mut out, i + 1, line.strip_suffix('\r').unwrap_or(line));
        count += 1;
    }
    (out, count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_cuts() {
        let (out, n) = number_lines("a\r\nb\nc", 2, 5);
        assert_eq!(out, "     2\tb\n     3\tc\n");
        assert_eq!(n, 2);
        let long = "x".repeat(MAX_LINE_CHARS + 5);
        let (out, _) = number_lines(&long, 1, 1);
        assert!(out.ends_with("… [line truncated]\n"));
    }
}

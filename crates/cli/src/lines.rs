//! Reading JSON-lines input (`tool --calls`, `permissions check --batch`) with a bound on each line, so that an
//! endless input without line breaks is answered with an error instead of growing until memory runs out.

use std::io::{self, BufRead};

/// The longest input line read, in bytes (a call carrying a whole file's content fits many times over).
pub const MAX_LINE_BYTES: usize = 64 << 20;

/// One line of input.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// The line's text, without its line break.
    Text(String),
    /// The line was longer than the bound; it was skipped up to its line break.
    TooLong,
    /// The line is not UTF-8.
    NotUtf8,
}

impl Line {
    /// The line's text, or why there is none (for the answer line of a line that could not be read).
    pub fn into_text(self) -> Result<String, String> {
        match self {
            Self::Text(text) => Ok(text),
            Self::TooLong => Err(format!(
                "the line is longer than {} MiB; it was skipped",
                MAX_LINE_BYTES >> 20
            )),
            Self::NotUtf8 => Err("the line is not valid UTF-8".into()),
        }
    }
}

/// The lines of `input`, each at most `max` bytes; a longer one is skipped (without holding it) and reported.
pub fn bounded_lines(input: impl BufRead, max: usize) -> impl Iterator<Item = io::Result<Line>> {
    let mut input = input;
    std::iter::from_fn(move || read_line(&mut input, max).transpose())
}

fn read_line<R: BufRead>(input: &mut R, max: usize) -> io::Result<Option<Line>> {
    let mut buf = Vec::new();
    let mut limited: io::Take<&mut R> = io::Read::take(&mut *input, max as u64 + 1);
    let read = limited.read_until(b'\n', &mut buf)?;
    if read == 0 {
        return Ok(None);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
        if buf.last() == Some(&b'\r') {
            buf.pop();
        }
    } else if buf.len() > max {
        drop(buf);
        skip_line(input)?;
        return Ok(Some(Line::TooLong));
    }
    Ok(Some(match String::from_utf8(buf) {
        Ok(text) => Line::Text(text),
        Err(_) => Line::NotUtf8,
    }))
}

/// Consumes input up to and including the next line break (or the end).
fn skip_line(input: &mut impl BufRead) -> io::Result<()> {
    loop {
        let (found, used) = {
            let available = input.fill_buf()?;
            if available.is_empty() {
                return Ok(());
            }
            match available.iter().position(|b| *b == b'\n') {
                Some(at) => (true, at + 1),
                None => (false, available.len()),
            }
        };
        input.consume(used);
        if found {
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_over_the_bound_is_skipped_and_reported_and_reading_goes_on() {
        let input = format!("short\n{}\nafter\r\nlast", "x".repeat(100));
        let lines: Vec<Line> = bounded_lines(input.as_bytes(), 10)
            .collect::<io::Result<_>>()
            .expect("read");
        assert_eq!(
            lines,
            vec![
                Line::Text("short".into()),
                Line::TooLong,
                Line::Text("after".into()),
                Line::Text("last".into()),
            ]
        );
        let bad: Vec<Line> = bounded_lines(&b"\xff\xfe\nok\n"[..], 10)
            .collect::<io::Result<_>>()
            .expect("read");
        assert_eq!(bad, vec![Line::NotUtf8, Line::Text("ok".into())]);
    }
}

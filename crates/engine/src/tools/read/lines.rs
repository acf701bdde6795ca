//! Streams text for Read line by line: skips to `offset`, numbers the lines shown (each kept only up to what is
//! shown of it, so a huge line costs no memory), and after them either stops or counts on to the end. Along the way
//! it notes the first byte that is not UTF-8 and, when asked, hashes every byte for the file's read state.

use std::io::{self, BufRead};

use super::numbered::{MAX_LINE_CHARS, MAX_OUTPUT_BYTES, push_numbered};

/// Bytes of a line kept for display: enough for `MAX_LINE_CHARS` characters of up to 4 bytes each, and one more.
const KEEP_BYTES: usize = (MAX_LINE_CHARS + 1) * 4;

/// What to show and how far to read.
#[derive(Debug, Clone, Copy)]
pub struct Request {
    /// The first line shown (1-based).
    pub first: usize,
    /// Lines shown at most.
    pub limit: usize,
    /// Whether to read on to the end after the lines shown (to count the lines), or stop right after them.
    pub to_end: bool,
    /// The offset of the stream's first byte in the file (a byte-order mark before it), for the UTF-8 check.
    pub start: u64,
}

/// The outcome of a scan.
#[derive(Debug)]
pub struct Scan {
    /// The lines shown, numbered like `cat -n`.
    pub numbered: String,
    /// How many lines were shown.
    pub count: usize,
    /// The file's line count when the scan reached the end; else the lines known to exist (a lower bound).
    pub lines: usize,
    /// Whether the scan reached the end of the file.
    pub reached_end: bool,
    /// The file offset of the first byte that is not UTF-8 (an incomplete sequence at the end counts).
    pub first_bad: Option<u64>,
    /// The hash of every byte read, when hashing was asked for and the scan reached the end.
    pub hash: Option<blake3::Hash>,
}

/// Finds the first invalid UTF-8 byte of a stream fed in chunks of any size.
#[derive(Debug, Default)]
struct Utf8Check {
    /// The file offset of the next byte fed.
    offset: u64,
    /// The bytes of a character cut by the end of the previous chunk (at most 3).
    carry: Vec<u8>,
    first_bad: Option<u64>,
}

impl Utf8Check {
    fn feed(&mut self, mut chunk: &[u8]) {
        if self.first_bad.is_some() {
            return;
        }
        while !self.carry.is_empty() && !chunk.is_empty() {
            let carry_start = self.offset - self.carry.len() as u64;
            self.carry.push(chunk[0]);
            chunk = &chunk[1..];
            self.offset += 1;
            match std::str::from_utf8(&self.carry) {
                Ok(_) => self.carry.clear(),
                Err(e) if e.error_len().is_some() => {
                    self.first_bad = Some(carry_start);
                    return;
                }
                Err(_) => {}
            }
        }
        if chunk.is_empty() {
            return;
        }
        match std::str::from_utf8(chunk) {
            Ok(_) => {}
            Err(e) if e.error_len().is_some() => {
                self.first_bad = Some(self.offset + e.valid_up_to() as u64);
            }
            Err(e) => self.carry.extend_from_slice(&chunk[e.valid_up_to()..]),
        }
        self.offset += chunk.len() as u64;
    }

    fn finish(mut self) -> Option<u64> {
        if self.first_bad.is_none() && !self.carry.is_empty() {
            self.first_bad = Some(self.offset - self.carry.len() as u64);
        }
        self.first_bad
    }
}

/// The scan's running state.
struct Scanner {
    req: Request,
    out: String,
    count: usize,
    /// Newlines seen so far; the line being read is `newlines + 1`.
    newlines: usize,
    /// Whether the output reached its size cap (no more lines are shown).
    full: bool,
    /// The kept start of the line being shown, and whether it has any byte at all.
    line: Vec<u8>,
    line_started: bool,
    last_byte: Option<u8>,
}

impl Scanner {
    fn showing(&self, line_no: usize) -> bool {
        !self.full && line_no >= self.req.first && line_no - self.req.first < self.req.limit
    }

    /// Whether no line still to come can be shown.
    fn done_showing(&self) -> bool {
        let line_no = self.newlines + 1;
        self.full || line_no.saturating_sub(self.req.first) >= self.req.limit
    }

    /// Shows the line in `self.line`; `terminated` when a newline ended it.
    fn show_line(&mut self, terminated: bool) {
        if self.out.len() > MAX_OUTPUT_BYTES {
            self.full = true;
        } else {
            let text = String::from_utf8_lossy(&self.line);
            let mut line: &str = &text;
            // As `str::lines` then `number_lines` do: a newline takes one `\r` with it, and one more is dropped.
            if terminated {
                line = line.strip_suffix('\r').unwrap_or(line);
            }
            line = line.strip_suffix('\r').unwrap_or(line);
            push_numbered(&mut self.out, self.newlines + 1, line);
            self.count += 1;
        }
        self.line.clear();
        self.line_started = false;
    }

    fn keep(&mut self, part: &[u8]) {
        self.line_started |= !part.is_empty();
        let room = KEEP_BYTES.saturating_sub(self.line.len());
        self.line.extend_from_slice(&part[..part.len().min(room)]);
    }

    fn feed(&mut self, chunk: &[u8]) {
        if let Some(&b) = chunk.last() {
            self.last_byte = Some(b);
        }
        let mut rest = chunk;
        while !rest.is_empty() {
            let line_no = self.newlines + 1;
            if line_no < self.req.first {
                let wanted = self.req.first - line_no;
                let mut skipped = 0;
                let mut cut = rest.len();
                for i in memchr::memchr_iter(b'\n', rest) {
                    skipped += 1;
                    if skipped == wanted {
                        cut = i + 1;
                        break;
                    }
                }
                self.newlines += skipped;
                rest = &rest[cut..];
            } else if self.showing(line_no) {
                match memchr::memchr(b'\n', rest) {
                    Some(i) => {
                        self.keep(&rest[..i]);
                        self.show_line(true);
                        self.newlines += 1;
                        rest = &rest[i + 1..];
                    }
                    None => {
                        self.keep(rest);
                        rest = &[];
                    }
                }
            } else {
                self.newlines += memchr::memchr_iter(b'\n', rest).count();
                rest = &[];
            }
        }
    }
}

/// Scans `reader` for `req`; `hasher` is the hasher to feed every byte read (already fed any bytes before the
/// stream), or `None` not to hash.
pub fn scan(
    reader: &mut impl BufRead,
    req: Request,
    mut hasher: Option<blake3::Hasher>,
) -> io::Result<Scan> {
    let mut s = Scanner {
        req,
        out: String::new(),
        count: 0,
        newlines: 0,
        full: false,
        line: Vec::new(),
        line_started: false,
        last_byte: None,
    };
    let mut utf8 = Utf8Check {
        offset: req.start,
        ..Utf8Check::default()
    };
    let reached_end = loop {
        let chunk = reader.fill_buf()?;
        if chunk.is_empty() {
            break true;
        }
        if !req.to_end && s.done_showing() {
            break false;
        }
        if let Some(h) = hasher.as_mut() {
            h.update(chunk);
        }
        utf8.feed(chunk);
        s.feed(chunk);
        let n = chunk.len();
        reader.consume(n);
    };
    let mut lines = s.newlines;
    if reached_end && s.last_byte.is_some_and(|b| b != b'\n') {
        lines += 1;
        if s.line_started && s.showing(s.newlines + 1) {
            s.show_line(false);
        }
    }
    Ok(Scan {
        numbered: s.out,
        count: s.count,
        lines,
        reached_end,
        first_bad: utf8.finish(),
        hash: hasher.filter(|_| reached_end).map(|h| h.finalize()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &[u8], first: usize, limit: usize, to_end: bool, buf: usize) -> Scan {
        let mut reader = io::BufReader::with_capacity(buf, text);
        let req = Request {
            first,
            limit,
            to_end,
            start: 0,
        };
        scan(&mut reader, req, Some(blake3::Hasher::new())).expect("scan")
    }

    #[test]
    fn matches_number_lines_whatever_the_chunk_size() {
        let text = "a\r\nbb\n\nccc\r\r\nd\re\nlast\r";
        for buf in [1, 2, 3, 7, 64] {
            for first in 1..=8 {
                for limit in 1..=7 {
                    let s = run(text.as_bytes(), first, limit, true, buf);
                    let (want, n) = super::super::numbered::number_lines(text, first, limit);
                    assert_eq!(
                        (s.numbered.as_str(), s.count),
                        (want.as_str(), n),
                        "{buf} {first} {limit}"
                    );
                    assert_eq!(s.lines, 6);
                    assert!(s.reached_end);
                    assert_eq!(s.hash, Some(blake3::hash(text.as_bytes())));
                }
            }
        }
    }

    #[test]
    fn stops_after_the_lines_shown_unless_asked_to_count() {
        let text: String = (1..=1000).map(|i| format!("line {i}\n")).collect();
        let s = run(text.as_bytes(), 10, 2, false, 16);
        assert_eq!(s.numbered, "    10\tline 10\n    11\tline 11\n");
        assert!(!s.reached_end && s.hash.is_none());
        assert!(s.lines >= 11 && s.lines < 1000, "{}", s.lines);
        let s = run(text.as_bytes(), 999, 5, false, 16);
        assert!(s.reached_end);
        assert_eq!((s.count, s.lines), (2, 1000));
    }

    #[test]
    fn finds_the_first_bad_byte_across_chunks() {
        let mut bytes = "é😀\n".repeat(5).into_bytes();
        bytes.extend_from_slice(&[b'x', 0xE2, 0x82]);
        for buf in [1, 2, 5, 100] {
            let s = run(&bytes, 1, 100, true, buf);
            assert_eq!(s.first_bad, Some(bytes.len() as u64 - 2), "{buf}");
        }
        bytes.extend_from_slice(&[0xAC, b'\n', 0xFF]);
        let s = run(&bytes, 1, 100, true, 3);
        assert_eq!(s.first_bad, Some(bytes.len() as u64 - 1));
        assert!(s.numbered.ends_with("     7\t\u{FFFD}\n"), "{}", s.numbered);
    }

    #[test]
    fn keeps_only_the_shown_start_of_a_huge_line() {
        let mut text = vec![b'y'; 3_000_000];
        text.extend_from_slice(b"\nz\n");
        let s = run(&text, 1, 2, true, 4096);
        assert!(s.numbered.starts_with("     1\tyyy"));
        assert!(s.numbered.contains("… [line truncated]\n     2\tz\n"));
        assert!(s.numbered.len() < 2 * MAX_LINE_CHARS);
    }
}

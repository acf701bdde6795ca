//! Terminal output: decoding the PTY's bytes into text for progress, keeping the head and tail of a long output,
//! and cleaning it for the model (ANSI escapes stripped, carriage returns resolved, the middle cut past a limit).

/// The most characters of output the model is given; a longer output keeps its head and tail.
pub const MAX_OUTPUT_CHARS: usize = 30_000;
/// Raw bytes kept from each end of the output (generous: escapes are stripped afterwards).
const WINDOW_BYTES: usize = 256 * 1024;

/// Decodes a byte stream into UTF-8 text chunk by chunk, carrying a character split between chunks over to the
/// next one (invalid bytes become U+FFFD).
#[derive(Debug, Default)]
pub struct Utf8Stream {
    pending: Vec<u8>,
}

impl Utf8Stream {
    /// The text of `bytes` (after whatever was pending), keeping an incomplete trailing character for later.
    pub fn push(&mut self, bytes: &[u8]) -> String {
        self.pending.extend_from_slice(bytes);
        let keep = incomplete_tail(&self.pending);
        let split = self.pending.len() - keep;
        let text = String::from_utf8_lossy(&self.pending[..split]).into_owned();
        self.pending.drain(..split);
        text
    }

    /// Whatever is still pending, decoded lossily.
    pub fn finish(&mut self) -> String {
        let text = String::from_utf8_lossy(&self.pending).into_owned();
        self.pending.clear();
        text
    }
}

/// How many bytes at the end of `bytes` start a UTF-8 character that is not complete yet.
fn incomplete_tail(bytes: &[u8]) -> usize {
    for back in 1..=3.min(bytes.len()) {
        let b = bytes[bytes.len() - back];
        if b & 0b1100_0000 == 0b1000_0000 {
            continue; // a continuation byte: look further back
        }
        let needed = if b >= 0b1111_0000 {
            4
        } else if b >= 0b1110_0000 {
            3
        } else if b >= 0b1100_0000 {
            2
        } else {
            1
        };
        return if needed > back { back } else { 0 };
    }
    0
}

/// Keeps the first and last [`WINDOW_BYTES`] of an output of any size, counting what lies between.
#[derive(Debug, Default)]
pub struct OutputCollector {
    head: Vec<u8>,
    tail: std::collections::VecDeque<u8>,
    total: u64,
}

impl OutputCollector {
    /// Adds a chunk of raw output.
    pub fn push(&mut self, bytes: &[u8]) {
        self.total += bytes.len() as u64;
        let room = WINDOW_BYTES.saturating_sub(self.head.len());
        let (to_head, rest) = bytes.split_at(room.min(bytes.len()));
        self.head.extend_from_slice(to_head);
        self.tail.extend(rest);
        while self.tail.len() > WINDOW_BYTES {
            self.tail.pop_front();
        }
    }

    /// The raw output kept (ANSI included): all of it, or its head and tail around a line saying how much was cut.
    pub fn raw(&self) -> Vec<u8> {
        let mut all = self.head.clone();
        let skipped = self.total - (self.head.len() + self.tail.len()) as u64;
        if skipped > 0 {
            all.extend_from_slice(
                format!("\r\n[... {skipped} bytes of output were cut here ...]\r\n").as_bytes(),
            );
        }
        all.extend(self.tail.iter());
        all
    }

    /// The output cleaned for the model and cut to [`MAX_OUTPUT_CHARS`] keeping head and tail.
    pub fn for_model(&self) -> String {
        let skipped = self.total - (self.head.len() + self.tail.len()) as u64;
        let tail: Vec<u8> = self.tail.iter().copied().collect();
        if skipped == 0 {
            let mut all = self.head.clone();
            all.extend_from_slice(&tail);
            return cut_middle(&clean(&all), MAX_OUTPUT_CHARS);
        }
        let head = clean(&self.head);
        let tail = clean(&tail);
        let half = MAX_OUTPUT_CHARS / 2;
        let head: String = head.chars().take(half).collect();
        let tail_chars = tail.chars().count();
        let tail: String = tail.chars().skip(tail_chars.saturating_sub(half)).collect();
        format!(
            "{head}\n\n[... output truncated: more than {skipped} bytes were cut from the middle ...]\n\n{tail}"
        )
    }
}

/// Strips ANSI escapes, turns `\r\n` into `\n` and keeps only what follows the last `\r` of a line (what a
/// terminal would show after a progress bar redraws itself); trailing blank space is trimmed.
pub fn clean(raw: &[u8]) -> String {
    // Carriage returns first: the escape stripper drops them.
    let mut resolved = Vec::with_capacity(raw.len());
    for (i, line) in raw.split(|b| *b == b'\n').enumerate() {
        if i > 0 {
            resolved.push(b'\n');
        }
        // A file with CRLF endings reaches us through the terminal as `\r\r\n`: every carriage return that ends
        // the line is a line ending, not a redraw.
        let mut line = line;
        while let Some(rest) = line.strip_suffix(b"\r") {
            line = rest;
        }
        let shown = line.rsplit(|b| *b == b'\r').next().unwrap_or(line);
        resolved.extend_from_slice(shown);
    }
    let stripped = strip_ansi_escapes::strip(&resolved);
    String::from_utf8_lossy(&stripped).trim_end().to_string()
}

/// `text` itself when it has at most `max` characters; otherwise its first and last `max / 2` characters around a
/// marker saying how many were cut.
pub fn cut_middle(text: &str, max: usize) -> String {
    crate::text::cut_middle(text, max, "output")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_character_split_between_chunks_is_decoded_whole() {
        let bytes = "héllo €".as_bytes();
        let mut stream = Utf8Stream::default();
        let mut text = String::new();
        for b in bytes {
            text.push_str(&stream.push(&[*b]));
        }
        text.push_str(&stream.finish());
        assert_eq!(text, "héllo €");
    }

    #[test]
    fn clean_strips_colour_and_progress_redraws() {
        let raw = b"\x1b[31mred\x1b[0m\r\n10%\r50%\r100%\r\ndone\r\n";
        assert_eq!(clean(raw), "red\n100%\ndone");
    }

    #[test]
    fn crlf_lines_through_the_terminal_keep_their_text() {
        // `cat` of a Windows-style file: the terminal turns each `\n` into `\r\n`.
        let raw = b"first line\r\r\nsecond line\r\r\n\r\r\nlast\r\r\n";
        assert_eq!(clean(raw), "first line\nsecond line\n\nlast");
        assert_eq!(clean(b"a\r\nb\r"), "a\nb");
    }

    #[test]
    fn a_long_output_keeps_head_and_tail() {
        let mut c = OutputCollector::default();
        for i in 0..200_000 {
            c.push(format!("line {i}\n").as_bytes());
        }
        let text = c.for_model();
        assert!(text.starts_with("line 0\n"));
        assert!(text.ends_with("line 199999"));
        assert!(text.contains("output truncated"));
        assert!(text.chars().count() < MAX_OUTPUT_CHARS + 200);
    }
}

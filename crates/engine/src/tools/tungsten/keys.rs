//! The key syntax of Tungsten's `send`: plain text, backslash escapes (`\n`, `\r`, `\t`, `\e`, `\\`, `\xHH`) and
//! named keys in angle brackets (`<Enter>`, `<Esc>`, `<Up>`, `<C-c>`, `<M-x>`, `<F5>`...), turned into the bytes a
//! terminal sends for them.

/// The syntax, as the model is told it.
pub const SYNTAX: &str = "`keys` is typed as written, with these escapes: `\\n` (line feed), `\\r` (carriage \
return), `\\t` (tab), `\\e` (Escape), `\\\\` (a backslash), `\\xHH` (the byte HH), and named keys in angle brackets \
(names are case-insensitive): `<Enter>` (what the Enter key sends: a carriage return), `<Tab>`, `<Esc>`, `<BS>` \
(Backspace), `<Space>`, `<Up>`, `<Down>`, `<Left>`, `<Right>`, `<Home>`, `<End>`, `<PageUp>`, `<PageDown>`, \
`<Insert>`, `<Delete>`, `<F1>`..`<F12>`, `<C-x>` (Control with a letter or one of @ [ \\ ] ^ _ ?, e.g. `<C-c>` to \
interrupt, `<C-d>` for end of input), `<M-x>` (Alt/Meta with a key: Escape then it), and `<lt>` for a literal `<`. \
A `<` that does not start one of these names is typed as it is.";

/// The bytes `keys` sends; `application_cursor`: the program asked for the arrow keys' application mode (`ESC O A`
/// rather than `ESC [ A`). An unknown escape is an error naming it.
pub fn encode(keys: &str, application_cursor: bool) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(keys.len());
    let mut rest = keys;
    while let Some(c) = rest.chars().next() {
        match c {
            '\\' => {
                let (bytes, used) = escape(&rest[1..])?;
                out.extend_from_slice(&bytes);
                rest = &rest[1 + used..];
            }
            '<' => match named(&rest[1..], application_cursor) {
                Some((bytes, used)) => {
                    out.extend_from_slice(&bytes);
                    rest = &rest[1 + used..];
                }
                None => {
                    out.push(b'<');
                    rest = &rest[1..];
                }
            },
            _ => {
                let mut buf = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                rest = &rest[c.len_utf8()..];
            }
        }
    }
    Ok(out)
}

/// The escape after a backslash: its bytes and how many bytes of `after` it used.
fn escape(after: &str) -> Result<(Vec<u8>, usize), String> {
    let Some(c) = after.chars().next() else {
        return Err("a lone backslash ends the keys: write `\\\\` for a backslash".into());
    };
    let byte = match c {
        'n' => b'\n',
        'r' => b'\r',
        't' => b'\t',
        'e' => 0x1b,
        '\\' => b'\\',
        'x' => {
            let hex = after.get(1..3).unwrap_or("");
            return u8::from_str_radix(hex, 16)
                .map(|b| (vec![b], 3))
                .map_err(|_| format!("`\\x` needs two hex digits (as in `\\x1b`), not `{hex}`"));
        }
        other => {
            return Err(format!(
                "unknown escape `\\{other}`: the escapes are \\n, \\r, \\t, \\e, \\\\ and \\xHH"
            ));
        }
    };
    Ok((vec![byte], 1))
}

/// The named key at the start of `after` (what follows a `<`), with how many bytes of `after` it used (through the
/// `>`); `None` when `after` does not start with a known name and `>`.
fn named(after: &str, application_cursor: bool) -> Option<(Vec<u8>, usize)> {
    let end = after.find('>')?;
    let name = &after[..end];
    if name.is_empty() || name.len() > 10 {
        return None;
    }
    let csi = |tail: &str| format!("\x1b[{tail}").into_bytes();
    let arrow = |letter: char| {
        let lead = if application_cursor { 'O' } else { '[' };
        format!("\x1b{lead}{letter}").into_bytes()
    };
    let lower = name.to_ascii_lowercase();
    let bytes = match lower.as_str() {
        "enter" | "return" | "cr" => vec![b'\r'],
        "tab" => vec![b'\t'],
        "esc" | "escape" => vec![0x1b],
        "bs" | "backspace" => vec![0x7f],
        "space" => vec![b' '],
        "lt" => vec![b'<'],
        "up" => arrow('A'),
        "down" => arrow('B'),
        "right" => arrow('C'),
        "left" => arrow('D'),
        "home" => arrow('H'),
        "end" => arrow('F'),
        "pageup" => csi("5~"),
        "pagedown" => csi("6~"),
        "insert" => csi("2~"),
        "delete" | "del" => csi("3~"),
        _ => {
            if let Some(n) = lower.strip_prefix('f').and_then(|n| n.parse::<u8>().ok()) {
                function_key(n)?
            } else if let Some(key) = lower.strip_prefix("c-") {
                vec![control(key)?]
            } else if lower.starts_with("m-") || lower.starts_with("a-") {
                // The key keeps its case after Meta: `<M-X>` is Escape then `X`.
                meta(&name[2..])?
            } else {
                return None;
            }
        }
    };
    Some((bytes, end + 1))
}

/// Escape then the one character `key` (`<M-key>`).
fn meta(key: &str) -> Option<Vec<u8>> {
    let mut chars = key.chars();
    let (Some(c), None) = (chars.next(), chars.next()) else {
        return None;
    };
    let mut bytes = vec![0x1b];
    let mut buf = [0u8; 4];
    bytes.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
    Some(bytes)
}

/// The control code of `<C-key>`.
fn control(key: &str) -> Option<u8> {
    let mut chars = key.chars();
    let (Some(c), None) = (chars.next(), chars.next()) else {
        return None;
    };
    match c {
        'a'..='z' => Some(c as u8 - b'a' + 1),
        '@' | ' ' => Some(0),
        '[' => Some(0x1b),
        '\\' => Some(0x1c),
        ']' => Some(0x1d),
        '^' => Some(0x1e),
        '_' => Some(0x1f),
        '?' => Some(0x7f),
        _ => None,
    }
}

/// What xterm sends for F1 to F12.
fn function_key(n: u8) -> Option<Vec<u8>> {
    let seq = match n {
        1 => "\x1bOP",
        2 => "\x1bOQ",
        3 => "\x1bOR",
        4 => "\x1bOS",
        5 => "\x1b[15~",
        6 => "\x1b[17~",
        7 => "\x1b[18~",
        8 => "\x1b[19~",
        9 => "\x1b[20~",
        10 => "\x1b[21~",
        11 => "\x1b[23~",
        12 => "\x1b[24~",
        _ => return None,
    };
    Some(seq.as_bytes().to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_turn_into_the_bytes_a_terminal_sends() {
        let cases: &[(&str, bool, &[u8])] = &[
            ("1+41<Enter>", false, b"1+41\r"),
            ("ls\\n", false, b"ls\n"),
            ("a\\tb", false, b"a\tb"),
            ("<Esc>:wq<CR>", false, b"\x1b:wq\r"),
            ("<esc>", false, b"\x1b"),
            ("<C-c>", false, b"\x03"),
            ("<C-D>", false, b"\x04"),
            ("<C-[>", false, b"\x1b"),
            ("<M-x>", false, b"\x1bx"),
            ("<Up><Down>", false, b"\x1b[A\x1b[B"),
            ("<Up>", true, b"\x1bOA"),
            ("<F1><F5>", false, b"\x1bOP\x1b[15~"),
            ("<Delete><PageUp>", false, b"\x1b[3~\x1b[5~"),
            ("1<2", false, b"1<2"),
            ("a <b> c", false, b"a <b> c"),
            ("<lt>Enter>", false, b"<Enter>"),
            ("\\\\<BS>", false, b"\\\x7f"),
            ("\\x1b[2J", false, b"\x1b[2J"),
            ("é", false, "é".as_bytes()),
            ("<F13>", false, b"<F13>"),
            ("<C-1>", false, b"<C-1>"),
        ];
        for (keys, app, want) in cases {
            assert_eq!(
                encode(keys, *app).as_deref(),
                Ok(*want),
                "{keys:?} (application cursor: {app})"
            );
        }
    }

    #[test]
    fn a_bad_escape_is_an_error_that_names_it() {
        for (keys, says) in [
            ("\\q", "\\q"),
            ("\\x1", "two hex digits"),
            ("abc\\", "lone backslash"),
        ] {
            let error = encode(keys, false).expect_err(keys);
            assert!(error.contains(says), "{keys}: {error}");
        }
    }
}

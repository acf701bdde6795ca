//! Text encodings the file tools read and write: UTF-8 (with or without a byte-order mark) and UTF-16LE (with its
//! mark). Anything else is refused rather than guessed, so that an edit never corrupts a file.

/// The encoding of a text file, as found when it was read; writes keep it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    /// UTF-8 with a leading byte-order mark (kept on write).
    Utf8Bom,
    /// UTF-16 little-endian with its byte-order mark (kept on write).
    Utf16Le,
}

/// Why bytes could not be taken as text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    #[error("it is a binary file (it contains NUL bytes)")]
    Binary,
    #[error(
        "it is not valid UTF-8 (first bad byte at offset {0}); only UTF-8 and UTF-16LE text can be edited"
    )]
    InvalidUtf8(usize),
    #[error("it is not valid UTF-16LE")]
    InvalidUtf16,
    #[error(
        "it is encoded as UTF-16BE, which is not supported; only UTF-8 and UTF-16LE text can be edited"
    )]
    Utf16Be,
}

const UTF8_BOM: &[u8] = &[0xEF, 0xBB, 0xBF];
const UTF16LE_BOM: &[u8] = &[0xFF, 0xFE];
const UTF16BE_BOM: &[u8] = &[0xFE, 0xFF];

/// A decoded text file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextFile {
    pub text: String,
    pub encoding: Encoding,
}

impl Encoding {
    /// The byte-order mark written before the text.
    pub fn bom(self) -> &'static [u8] {
        match self {
            Encoding::Utf8 => &[],
            Encoding::Utf8Bom => UTF8_BOM,
            Encoding::Utf16Le => UTF16LE_BOM,
        }
    }
}

/// Whether the first 8 KiB hold a NUL byte (the test `git` and ripgrep use for binary files).
pub fn looks_binary(bytes: &[u8]) -> bool {
    memchr::memchr(0, &bytes[..bytes.len().min(8192)]).is_some()
}

/// Decodes a file's bytes, taking ownership to avoid a copy for plain UTF-8.
pub fn decode(bytes: Vec<u8>) -> Result<TextFile, DecodeError> {
    if bytes.starts_with(UTF16LE_BOM) {
        return decode_utf16le(&bytes[2..]).map(|text| TextFile {
            text,
            encoding: Encoding::Utf16Le,
        });
    }
    if bytes.starts_with(UTF16BE_BOM) {
        return Err(DecodeError::Utf16Be);
    }
    let (encoding, mut bytes) = if bytes.starts_with(UTF8_BOM) {
        (Encoding::Utf8Bom, bytes)
    } else {
        (Encoding::Utf8, bytes)
    };
    if encoding == Encoding::Utf8Bom {
        bytes.drain(..3);
    }
    if looks_binary(&bytes) {
        return Err(DecodeError::Binary);
    }
    match String::from_utf8(bytes) {
        Ok(text) => Ok(TextFile { text, encoding }),
        Err(e) => Err(DecodeError::InvalidUtf8(
            e.utf8_error().valid_up_to() + encoding.bom().len(),
        )),
    }
}

/// Decodes borrowed bytes; UTF-8 text is borrowed, not copied.
pub fn decode_ref(bytes: &[u8]) -> Result<(std::borrow::Cow<'_, str>, Encoding), DecodeError> {
    if bytes.starts_with(UTF16LE_BOM) {
        return decode_utf16le(&bytes[2..])
            .map(|t| (std::borrow::Cow::Owned(t), Encoding::Utf16Le));
    }
    if bytes.starts_with(UTF16BE_BOM) {
        return Err(DecodeError::Utf16Be);
    }
    let (encoding, body) = match bytes.strip_prefix(UTF8_BOM) {
        Some(rest) => (Encoding::Utf8Bom, rest),
        None => (Encoding::Utf8, bytes),
    };
    if looks_binary(body) {
        return Err(DecodeError::Binary);
    }
    match std::str::from_utf8(body) {
        Ok(text) => Ok((std::borrow::Cow::Borrowed(text), encoding)),
        Err(e) => Err(DecodeError::InvalidUtf8(
            e.valid_up_to() + encoding.bom().len(),
        )),
    }
}

fn decode_utf16le(bytes: &[u8]) -> Result<String, DecodeError> {
    if !bytes.len().is_multiple_of(2) {
        return Err(DecodeError::InvalidUtf16);
    }
    let units = bytes
        .chunks_exact(2)
        .map(|pair| u16::from_le_bytes([pair[0], pair[1]]));
    char::decode_utf16(units)
        .collect::<Result<String, _>>()
        .map_err(|_| DecodeError::InvalidUtf16)
}

/// The bytes of `text` in `encoding`, without the byte-order mark (see [`Encoding::bom`]). Borrows for UTF-8.
pub fn encode_body(text: &str, encoding: Encoding) -> std::borrow::Cow<'_, [u8]> {
    match encoding {
        Encoding::Utf8 | Encoding::Utf8Bom => std::borrow::Cow::Borrowed(text.as_bytes()),
        Encoding::Utf16Le => {
            let mut out = Vec::with_capacity(text.len() * 2);
            for unit in text.encode_utf16() {
                out.extend_from_slice(&unit.to_le_bytes());
            }
            std::borrow::Cow::Owned(out)
        }
    }
}

/// The complete bytes of `text` in `encoding`, mark included.
pub fn encode(text: &str, encoding: Encoding) -> Vec<u8> {
    let mut out = encoding.bom().to_vec();
    out.extend_from_slice(&encode_body(text, encoding));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_each_encoding() {
        for enc in [Encoding::Utf8, Encoding::Utf8Bom, Encoding::Utf16Le] {
            let bytes = encode("héllo\r\nwörld “q”\n", enc);
            let file = decode(bytes.clone()).expect("decodes");
            assert_eq!(file.encoding, enc);
            assert_eq!(encode(&file.text, file.encoding), bytes);
            let (text, enc2) = decode_ref(&bytes).expect("decodes");
            assert_eq!((text.as_ref(), enc2), (file.text.as_str(), enc));
        }
    }

    #[test]
    fn refuses_what_it_cannot_keep() {
        assert_eq!(decode(b"a\0b".to_vec()), Err(DecodeError::Binary));
        assert_eq!(decode(vec![b'a', 0xff]), Err(DecodeError::InvalidUtf8(1)));
        assert_eq!(decode(vec![0xfe, 0xff, 0, b'a']), Err(DecodeError::Utf16Be));
        assert_eq!(
            decode(vec![0xff, 0xfe, b'a']),
            Err(DecodeError::InvalidUtf16)
        );
    }
}

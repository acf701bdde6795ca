//! The base protocol's framing: `Content-Length` headers, a blank line, then a JSON body. Written here (a few dozen
//! lines) rather than taken from `async-lsp` or `tower-lsp`: those bring a tower service stack and a main loop of
//! their own, where this client only sends requests and notifications and reads what comes back.

use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncReadExt};

/// The largest body read; a server announcing more is treated as broken.
const MAX_BODY: usize = 64 * 1024 * 1024;

/// The next message's body; `Ok(None)` at the end of the stream.
pub async fn read_message<R: AsyncBufRead + Unpin>(
    reader: &mut R,
) -> std::io::Result<Option<Vec<u8>>> {
    let mut length = None;
    let mut line = String::new();
    loop {
        line.clear();
        if reader.read_line(&mut line).await? == 0 {
            return Ok(None);
        }
        let header = line.trim_end_matches(['\r', '\n']);
        if header.is_empty() {
            if length.is_some() {
                break;
            }
            continue;
        }
        if let Some((name, value)) = header.split_once(':')
            && name.trim().eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse::<usize>().ok();
        }
    }
    let length = length.unwrap_or_default();
    if length > MAX_BODY {
        return Err(std::io::Error::other(format!(
            "the server announced a message of {length} bytes"
        )));
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).await?;
    Ok(Some(body))
}

/// `body` with its header, ready to write.
pub fn frame(body: &[u8]) -> Vec<u8> {
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn reads_back_what_it_frames_and_ends_at_eof() {
        let mut bytes = frame(br#"{"a":1}"#);
        bytes.extend(b"Content-Type: x\r\ncontent-length: 2\r\n\r\n{}");
        let mut reader = tokio::io::BufReader::new(&bytes[..]);
        assert_eq!(
            read_message(&mut reader)
                .await
                .expect("test value")
                .expect("test value"),
            br#"{"a":1}"#
        );
        assert_eq!(
            read_message(&mut reader)
                .await
                .expect("test value")
                .expect("test value"),
            b"{}"
        );
        assert!(
            read_message(&mut reader)
                .await
                .expect("test value")
                .is_none()
        );
    }
}

//! The loopback redirect listener of a sign-in: `http://127.0.0.1:<random port>/callback`, which takes one GET
//! carrying the authorization response (`code`, `state`, or `error`), answers the browser with a short page and
//! hands the full redirect URL to the flow.

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

/// The largest request head read from the browser.
const MAX_HEAD: usize = 16 * 1024;

/// A bound redirect listener.
pub struct RedirectListener {
    listener: TcpListener,
    port: u16,
}

impl RedirectListener {
    /// Binds 127.0.0.1 on a port the system picks.
    pub async fn bind() -> std::io::Result<Self> {
        let listener = TcpListener::bind(("127.0.0.1", 0)).await?;
        let port = listener.local_addr()?.port();
        Ok(Self { listener, port })
    }

    /// The redirect URI to register.
    pub fn redirect_uri(&self) -> String {
        format!("http://127.0.0.1:{}/callback", self.port)
    }

    /// Waits for the redirect (requests to other paths, such as a browser's favicon, get a 404 and are skipped);
    /// the full URL it was called with.
    pub async fn wait(self) -> std::io::Result<String> {
        loop {
            let (mut stream, _) = self.listener.accept().await?;
            let mut head = Vec::new();
            let mut buf = [0u8; 2048];
            while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < MAX_HEAD {
                let n = stream.read(&mut buf).await?;
                if n == 0 {
                    break;
                }
                head.extend_from_slice(&buf[..n]);
            }
            let text = String::from_utf8_lossy(&head);
            let target = text
                .lines()
                .next()
                .and_then(|line| line.strip_prefix("GET "))
                .and_then(|rest| rest.split(' ').next())
                .unwrap_or("")
                .to_string();
            if !target.starts_with("/callback") {
                let _ = stream
                    .write_all(
                        b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n",
                    )
                    .await;
                continue;
            }
            let body = "<!doctype html><title>Tandem</title><p>Signed in. You can close this tab and return to Tandem.</p>";
            let reply = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: text/html; charset=utf-8\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = stream.write_all(reply.as_bytes()).await;
            let _ = stream.shutdown().await;
            return Ok(format!("http://127.0.0.1:{}{target}", self.port));
        }
    }
}

//! The proxy a sandboxed command's traffic leaves through: it listens on a Unix socket (bound into the sandbox) and
//! admits only the hosts of `sandbox.network.allowedDomains` (exact names and `*.example.com` for subdomains) —
//! `CONNECT host:port` for https and absolute-form requests (`GET http://host/…`) for http. Every refused host is
//! recorded for the call's report. The proxy stops when its [`Proxy`] is dropped.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpStream, UnixListener, UnixStream};

use crate::permission::domain_matches;

/// The longest request head the proxy reads.
const MAX_HEAD: usize = 64 * 1024;
/// How long connecting to an admitted host may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(15);
/// How long a client may take to send its request head.
const HEAD_TIMEOUT: Duration = Duration::from_secs(30);

/// A running proxy for one command.
#[derive(Debug)]
pub struct Proxy {
    socket: PathBuf,
    refused: Arc<Mutex<Vec<String>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Proxy {
    /// Starts a proxy listening at `socket` (a fresh path) that admits `allowed` (domain patterns, lower case).
    pub fn start(socket: PathBuf, allowed: Vec<String>) -> std::io::Result<Self> {
        let _ = std::fs::remove_file(&socket);
        let listener = UnixListener::bind(&socket)?;
        let refused = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&refused);
        let allowed = Arc::new(allowed);
        let task = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let allowed = Arc::clone(&allowed);
                let log = Arc::clone(&log);
                tokio::spawn(async move {
                    if let Some(host) = serve(stream, &allowed).await.err().flatten()
                        && let Ok(mut log) = log.lock()
                        && !log.contains(&host)
                    {
                        log.push(host);
                    }
                });
            }
        });
        Ok(Self {
            socket,
            refused,
            task,
        })
    }

    /// Where the proxy listens.
    pub fn socket(&self) -> &Path {
        &self.socket
    }

    /// The hosts refused so far, each once, in the order first refused.
    pub fn refused(&self) -> Vec<String> {
        self.refused.lock().map(|r| r.clone()).unwrap_or_default()
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.task.abort();
        let _ = std::fs::remove_file(&self.socket);
    }
}

/// Whether `allowed` admits `host`.
pub fn admits(allowed: &[String], host: &str) -> bool {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    allowed.iter().any(|p| domain_matches(p, &host))
}

/// A request's target.
#[derive(Debug, PartialEq, Eq)]
struct Target {
    host: String,
    port: u16,
    /// `None` for CONNECT; for an absolute-form request, the head rewritten to origin form.
    forward: Option<Vec<u8>>,
}

/// Serves one client. `Err(Some(host))`: the host was refused; `Err(None)`: the request was bad or the client left.
async fn serve(mut client: UnixStream, allowed: &[String]) -> Result<(), Option<String>> {
    let (head, rest) = match tokio::time::timeout(HEAD_TIMEOUT, read_head(&mut client)).await {
        Ok(Some(h)) => h,
        _ => return Err(None),
    };
    let target = match parse_head(&head) {
        Ok(t) => t,
        Err(why) => {
            let _ = respond(&mut client, "400 Bad Request", &why).await;
            return Err(None);
        }
    };
    if !admits(allowed, &target.host) {
        let _ = respond(
            &mut client,
            "403 Forbidden",
            &format!(
                "Tandem's sandbox does not admit {}: it is not in sandbox.network.allowedDomains",
                target.host
            ),
        )
        .await;
        return Err(Some(target.host));
    }
    let upstream = tokio::time::timeout(
        CONNECT_TIMEOUT,
        TcpStream::connect((target.host.as_str(), target.port)),
    )
    .await;
    let mut upstream = match upstream {
        Ok(Ok(s)) => s,
        Ok(Err(e)) => {
            let _ = respond(&mut client, "502 Bad Gateway", &e.to_string()).await;
            return Err(None);
        }
        Err(_) => {
            let _ = respond(&mut client, "504 Gateway Timeout", "connecting timed out").await;
            return Err(None);
        }
    };
    match &target.forward {
        None => {
            client
                .write_all(b"HTTP/1.1 200 Connection Established\r\n\r\n")
                .await
                .map_err(|_| None)?;
        }
        Some(head) => upstream.write_all(head).await.map_err(|_| None)?,
    }
    upstream.write_all(&rest).await.map_err(|_| None)?;
    let _ = tokio::io::copy_bidirectional(&mut client, &mut upstream).await;
    Ok(())
}

/// Reads up to the end of the request head: the head and whatever came after it.
async fn read_head<R: AsyncRead + Unpin>(r: &mut R) -> Option<(Vec<u8>, Vec<u8>)> {
    let mut buf = Vec::with_capacity(1024);
    let mut chunk = [0u8; 4096];
    loop {
        if let Some(end) = find(&buf, b"\r\n\r\n") {
            let rest = buf.split_off(end + 4);
            return Some((buf, rest));
        }
        if buf.len() > MAX_HEAD {
            return None;
        }
        let n = r.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

async fn respond<W: AsyncWrite + Unpin>(
    w: &mut W,
    status: &str,
    body: &str,
) -> std::io::Result<()> {
    let body = format!("{body}\n");
    let text = format!(
        "HTTP/1.1 {status}\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    w.write_all(text.as_bytes()).await?;
    w.shutdown().await
}

/// Splits `host:port` (`[v6]:port`), with `default` when no port is given.
fn host_port(authority: &str, default: Option<u16>) -> Result<(String, u16), String> {
    let authority = authority.rsplit('@').next().unwrap_or(authority);
    let (host, port) = if let Some(rest) = authority.strip_prefix('[') {
        let (host, after) = rest
            .split_once(']')
            .ok_or_else(|| format!("bad address {authority}"))?;
        (host, after.strip_prefix(':'))
    } else {
        match authority.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (authority, None),
        }
    };
    let port = match port {
        Some(p) => p.parse().map_err(|_| format!("bad port in {authority}"))?,
        None => default.ok_or_else(|| format!("{authority} names no port"))?,
    };
    if host.is_empty() {
        return Err(format!("{authority} names no host"));
    }
    Ok((host.to_ascii_lowercase(), port))
}

/// Reads the request line and, for absolute-form requests, rewrites the head for the origin server.
fn parse_head(head: &[u8]) -> Result<Target, String> {
    let text = std::str::from_utf8(head).map_err(|_| "the request head is not text".to_string())?;
    let mut lines = text.split("\r\n");
    let first = lines.next().unwrap_or_default();
    let mut words = first.split(' ');
    let (Some(method), Some(uri), Some(version)) = (words.next(), words.next(), words.next())
    else {
        return Err(format!("bad request line: {first}"));
    };
    if method.eq_ignore_ascii_case("CONNECT") {
        let (host, port) = host_port(uri, None)?;
        return Ok(Target {
            host,
            port,
            forward: None,
        });
    }
    let Some(after) = uri.strip_prefix("http://") else {
        return Err(format!(
            "only CONNECT and absolute http:// requests go through this proxy, not {uri}"
        ));
    };
    let (authority, path) = match after.find('/') {
        Some(i) => (&after[..i], &after[i..]),
        None => (after, "/"),
    };
    let (host, port) = host_port(authority, Some(80))?;
    let mut out = format!("{method} {path} {version}\r\n");
    for line in lines.filter(|l| !l.is_empty()) {
        let name = line
            .split(':')
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        if name.starts_with("proxy-") || name == "connection" {
            continue;
        }
        out.push_str(line);
        out.push_str("\r\n");
    }
    out.push_str("Connection: close\r\n\r\n");
    Ok(Target {
        host,
        port,
        forward: Some(out.into_bytes()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn admission_table() {
        let allowed = vec!["example.com".to_string(), "*.github.com".to_string()];
        for (host, want) in [
            ("example.com", true),
            ("EXAMPLE.com.", true),
            ("www.example.com", false),
            ("api.github.com", true),
            ("a.b.github.com", true),
            ("github.com", false),
            ("evil-github.com", false),
            ("github.com.evil.net", false),
            ("127.0.0.1", false),
        ] {
            assert_eq!(admits(&allowed, host), want, "{host}");
        }
    }

    #[test]
    fn request_heads() {
        let t =
            parse_head(b"CONNECT api.github.com:443 HTTP/1.1\r\nHost: x\r\n\r\n").expect("connect");
        assert_eq!(
            (t.host.as_str(), t.port, t.forward),
            ("api.github.com", 443, None)
        );
        let t = parse_head(
            b"GET http://Example.com:8080/a?b HTTP/1.1\r\nHost: example.com\r\nProxy-Connection: keep-alive\r\n\r\n",
        )
        .expect("absolute");
        assert_eq!((t.host.as_str(), t.port), ("example.com", 8080));
        assert_eq!(
            String::from_utf8(t.forward.expect("forward")).expect("text"),
            "GET /a?b HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n"
        );
        let t = parse_head(b"GET http://[::1]/ HTTP/1.1\r\n\r\n").expect("v6");
        assert_eq!((t.host.as_str(), t.port), ("::1", 80));
        for bad in [
            &b"GET /relative HTTP/1.1\r\n\r\n"[..],
            b"CONNECT host HTTP/1.1\r\n\r\n",
            b"GET https://x/ HTTP/1.1\r\n\r\n",
            b"nonsense\r\n\r\n",
        ] {
            assert!(parse_head(bad).is_err(), "{}", String::from_utf8_lossy(bad));
        }
    }
}

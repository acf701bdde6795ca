//! The proxy a sandboxed command's traffic leaves through: it listens on a Unix socket (bound into the sandbox),
//! speaks HTTP/1 through `hyper`, and admits only the hosts of `sandbox.network.allowedDomains` (exact names and
//! `*.example.com` for subdomains) — `CONNECT host:port` for https (the connection is then a tunnel) and
//! absolute-form requests (`GET http://host/…`) for http, forwarded in origin form without the `Proxy-*` and
//! `Connection` headers. Every refused host is recorded for the call's report. The proxy stops when its [`Proxy`] is
//! dropped.

use std::convert::Infallible;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full, combinators::BoxBody};
use hyper::body::Incoming;
use hyper::header::{CONNECTION, HOST, HeaderValue};
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode, Uri};
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpStream, UnixListener, UnixStream};

use crate::permission::domain_matches;

/// The largest request head the proxy reads.
const MAX_HEAD: usize = 64 * 1024;
/// How long connecting to an admitted host may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(15);
/// How long a client may take to send its request head.
const HEAD_TIMEOUT: Duration = Duration::from_secs(30);

/// The hosts refused so far.
type Refused = Arc<Mutex<Vec<String>>>;
/// What the proxy answers with: a short text of its own, or the origin server's response.
type Body = BoxBody<Bytes, hyper::Error>;

/// A running proxy for one command.
#[derive(Debug)]
pub struct Proxy {
    socket: PathBuf,
    refused: Refused,
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
                tokio::spawn(serve(stream, Arc::clone(&allowed), Arc::clone(&log)));
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
    /// `None` for CONNECT; for an absolute-form request, its target in origin form (`/path?query`).
    forward: Option<Uri>,
}

/// Serves one client connection (one request after another, a CONNECT ending it as a tunnel).
async fn serve(client: UnixStream, allowed: Arc<Vec<String>>, refused: Refused) {
    let service = service_fn(move |request| {
        let allowed = Arc::clone(&allowed);
        let refused = Arc::clone(&refused);
        async move { Ok::<_, Infallible>(answer(request, &allowed, &refused).await) }
    });
    let _ = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(HEAD_TIMEOUT)
        .max_buf_size(MAX_HEAD)
        .serve_connection(TokioIo::new(client), service)
        .with_upgrades()
        .await;
}

/// The answer to one request: refused (with the host recorded), a tunnel, or the origin server's response.
async fn answer(
    request: Request<Incoming>,
    allowed: &[String],
    refused: &Refused,
) -> Response<Body> {
    let target = match target(request.method(), request.uri()) {
        Ok(t) => t,
        Err(why) => return text(StatusCode::BAD_REQUEST, &why),
    };
    if !admits(allowed, &target.host) {
        if let Ok(mut log) = refused.lock()
            && !log.contains(&target.host)
        {
            log.push(target.host.clone());
        }
        return text(
            StatusCode::FORBIDDEN,
            &format!(
                "Tandem's sandbox does not admit {}: it is not in sandbox.network.allowedDomains",
                target.host
            ),
        );
    }
    let upstream = tokio::time::timeout(
        CONNECT_TIMEOUT,
        TcpStream::connect((target.host.as_str(), target.port)),
    )
    .await;
    let upstream = match upstream {
        Ok(Ok(s)) => s,
        Ok(Err(e)) => return text(StatusCode::BAD_GATEWAY, &e.to_string()),
        Err(_) => return text(StatusCode::GATEWAY_TIMEOUT, "connecting timed out"),
    };
    match target.forward {
        None => {
            tokio::spawn(async move {
                if let Ok(upgraded) = hyper::upgrade::on(request).await {
                    let mut upstream = upstream;
                    let _ =
                        tokio::io::copy_bidirectional(&mut TokioIo::new(upgraded), &mut upstream)
                            .await;
                }
            });
            Response::new(
                Full::new(Bytes::new())
                    .map_err(|never| match never {})
                    .boxed(),
            )
        }
        Some(path) => forward(request, path, &target.host, upstream).await,
    }
}

/// Sends `request` to the origin server on `upstream` in origin form, without the headers meant for the proxy.
async fn forward(
    mut request: Request<Incoming>,
    path: Uri,
    host: &str,
    upstream: TcpStream,
) -> Response<Body> {
    *request.uri_mut() = path;
    let headers = request.headers_mut();
    let for_proxy: Vec<_> = headers
        .keys()
        .filter(|name| name.as_str().starts_with("proxy-") || *name == CONNECTION)
        .cloned()
        .collect();
    for name in for_proxy {
        headers.remove(name);
    }
    if !headers.contains_key(HOST)
        && let Ok(value) = HeaderValue::from_str(host)
    {
        headers.insert(HOST, value);
    }
    headers.insert(CONNECTION, HeaderValue::from_static("close"));
    let (mut sender, connection) =
        match hyper::client::conn::http1::handshake(TokioIo::new(upstream)).await {
            Ok(pair) => pair,
            Err(e) => return text(StatusCode::BAD_GATEWAY, &e.to_string()),
        };
    tokio::spawn(connection);
    match sender.send_request(request).await {
        Ok(response) => response.map(BodyExt::boxed),
        Err(e) => text(StatusCode::BAD_GATEWAY, &e.to_string()),
    }
}

/// A short text answer of the proxy's own; the connection closes after it.
fn text(status: StatusCode, body: &str) -> Response<Body> {
    let mut response = Response::new(
        Full::new(Bytes::from(format!("{body}\n")))
            .map_err(|never| match never {})
            .boxed(),
    );
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(
        hyper::header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain"),
    );
    headers.insert(CONNECTION, HeaderValue::from_static("close"));
    response
}

/// Where a request goes: the authority of a CONNECT, or the host of an absolute `http://` URI (port 80 unless
/// given) with the origin-form target to forward.
fn target(method: &Method, uri: &Uri) -> Result<Target, String> {
    let authority = uri.authority();
    let host = |authority: &hyper::http::uri::Authority| -> Result<String, String> {
        let host = authority
            .host()
            .trim_start_matches('[')
            .trim_end_matches(']');
        if host.is_empty() {
            return Err(format!("{authority} names no host"));
        }
        Ok(host.to_ascii_lowercase())
    };
    if method == Method::CONNECT {
        let authority = authority.ok_or_else(|| format!("bad CONNECT target {uri}"))?;
        let port = authority
            .port_u16()
            .ok_or_else(|| format!("{authority} names no port"))?;
        return Ok(Target {
            host: host(authority)?,
            port,
            forward: None,
        });
    }
    let (Some("http"), Some(authority)) = (uri.scheme_str(), authority) else {
        return Err(format!(
            "only CONNECT and absolute http:// requests go through this proxy, not {uri}"
        ));
    };
    let path = uri
        .path_and_query()
        .map_or("/", |p| p.as_str())
        .parse::<Uri>()
        .map_err(|e| format!("bad target {uri}: {e}"))?;
    Ok(Target {
        host: host(authority)?,
        port: authority.port_u16().unwrap_or(80),
        forward: Some(path),
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
    fn request_targets() {
        let t = |method: &str, uri: &str| {
            target(&method.parse().expect("method"), &uri.parse().expect("uri"))
        };
        let got = t("CONNECT", "api.github.com:443").expect("connect");
        assert_eq!(
            (got.host.as_str(), got.port, got.forward),
            ("api.github.com", 443, None)
        );
        let got = t("GET", "http://Example.com:8080/a?b").expect("absolute");
        assert_eq!((got.host.as_str(), got.port), ("example.com", 8080));
        assert_eq!(got.forward.expect("forward").to_string(), "/a?b");
        let got = t("GET", "http://[::1]").expect("v6");
        assert_eq!((got.host.as_str(), got.port), ("::1", 80));
        assert_eq!(got.forward.expect("forward").to_string(), "/");
        for (method, uri) in [
            ("GET", "/relative"),
            ("CONNECT", "host"),
            ("GET", "https://x/"),
        ] {
            assert!(t(method, uri).is_err(), "{method} {uri}");
        }
    }

    /// Sends `request` through a proxy admitting `localhost` and returns the answer; the origin server (on loopback)
    /// answers with the request head it received.
    async fn through_proxy(request: &str) -> String {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let origin = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let port = origin.local_addr().expect("address").port();
        tokio::spawn(async move {
            while let Ok((mut stream, _)) = origin.accept().await {
                let mut head = Vec::new();
                let mut buf = [0u8; 1024];
                while !head.ends_with(b"\r\n\r\n") {
                    match stream.read(&mut buf).await {
                        Ok(0) | Err(_) => break,
                        Ok(n) => head.extend_from_slice(&buf[..n]),
                    }
                }
                let reply = format!(
                    "HTTP/1.1 200 OK\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
                    head.len()
                );
                let _ = stream.write_all(reply.as_bytes()).await;
                let _ = stream.write_all(&head).await;
            }
        });
        let dir = tempfile::tempdir().expect("dir");
        let proxy =
            Proxy::start(dir.path().join("proxy.sock"), vec!["localhost".into()]).expect("proxy");
        let mut client = UnixStream::connect(proxy.socket()).await.expect("connect");
        client
            .write_all(request.replace("PORT", &port.to_string()).as_bytes())
            .await
            .expect("send");
        let mut answer = Vec::new();
        let _ = client.read_to_end(&mut answer).await;
        String::from_utf8_lossy(&answer).into_owned()
    }

    #[tokio::test]
    async fn requests_reach_the_origin_in_origin_form_and_others_are_refused() {
        let answer = through_proxy(
            "GET http://localhost:PORT/a?b HTTP/1.1\r\nHost: localhost:PORT\r\nProxy-Connection: keep-alive\r\nX-Kept: 1\r\n\r\n",
        )
        .await;
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        let sent = answer
            .split("\r\n\r\n")
            .nth(1)
            .unwrap_or_default()
            .to_ascii_lowercase();
        assert!(sent.starts_with("get /a?b http/1.1\r\n"), "{sent}");
        assert!(
            sent.contains("x-kept: 1") && sent.contains("host: localhost:"),
            "{sent}"
        );
        assert!(!sent.contains("proxy-connection"), "{sent}");

        let answer =
            through_proxy("GET http://blocked.example/ HTTP/1.1\r\nHost: blocked.example\r\n\r\n")
                .await;
        assert!(answer.starts_with("HTTP/1.1 403"), "{answer}");
        assert!(
            answer.contains("does not admit blocked.example"),
            "{answer}"
        );
        for bad in [
            "nonsense\r\n\r\n",
            "GET /relative HTTP/1.1\r\nHost: x\r\n\r\n",
        ] {
            let answer = through_proxy(bad).await;
            assert!(answer.starts_with("HTTP/1.1 400"), "{bad:?}: {answer}");
        }
    }
}

//! The loopback redirect listener of a sign-in: `http://127.0.0.1:<random port>/callback`, served with `hyper`,
//! which takes one GET carrying the authorization response (`code`, `state`, or `error`), answers the browser with
//! a short page and hands the full redirect URL to the flow.

use std::convert::Infallible;

use bytes::Bytes;
use http_body_util::Full;
use hyper::header::{CONTENT_TYPE, HeaderValue};
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;
use tokio::sync::mpsc;

/// The page the browser shows once the redirect arrived.
const SIGNED_IN: &str = "<!doctype html><title>Tandem</title><p>Signed in. You can close this tab and return to Tandem.</p>";

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
        let (found, mut redirects) = mpsc::channel::<String>(1);
        loop {
            let stream = tokio::select! {
                accepted = self.listener.accept() => accepted?.0,
                Some(target) = redirects.recv() => {
                    return Ok(format!("http://127.0.0.1:{}{target}", self.port));
                }
            };
            let found = found.clone();
            let service = service_fn(move |request| {
                let found = found.clone();
                async move { Ok::<_, Infallible>(answer(&request, &found)) }
            });
            tokio::spawn(
                hyper::server::conn::http1::Builder::new()
                    .keep_alive(false)
                    .serve_connection(TokioIo::new(stream), service),
            );
        }
    }
}

/// The signed-in page for a GET of `/callback…` (its target passed to `found`), a 404 for anything else.
fn answer(
    request: &Request<hyper::body::Incoming>,
    found: &mpsc::Sender<String>,
) -> Response<Full<Bytes>> {
    let target = request.uri().path_and_query().map_or("", |p| p.as_str());
    if request.method() != Method::GET || !target.starts_with("/callback") {
        let mut response = Response::new(Full::new(Bytes::new()));
        *response.status_mut() = StatusCode::NOT_FOUND;
        return response;
    }
    let _ = found.try_send(target.to_string());
    let mut response = Response::new(Full::new(Bytes::from_static(SIGNED_IN.as_bytes())));
    response.headers_mut().insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_callback_is_handed_over_and_other_paths_get_a_404() {
        let listener = RedirectListener::bind().await.expect("bind");
        let uri = listener.redirect_uri();
        let base = uri.trim_end_matches("/callback").to_string();
        let waiting = tokio::spawn(listener.wait());
        let client = reqwest::Client::new();
        let favicon = client
            .get(format!("{base}/favicon.ico"))
            .send()
            .await
            .expect("favicon");
        assert_eq!(favicon.status(), 404);
        let post = client
            .post(format!("{uri}?code=x"))
            .send()
            .await
            .expect("post");
        assert_eq!(post.status(), 404);
        let page = client
            .get(format!("{uri}?code=abc&state=s1"))
            .send()
            .await
            .expect("callback");
        assert_eq!(page.status(), 200);
        assert!(page.text().await.expect("page").contains("Signed in"));
        let redirect = waiting.await.expect("joined").expect("redirect");
        assert_eq!(redirect, format!("{uri}?code=abc&state=s1"));
    }
}

//! An authorization-page "browser" for tests and the conformance adapter: it GETs the authorization URL as a
//! person who already consented would, and follows the redirect it answers with to the client's loopback listener.

use crate::mcp::oauth::BrowserOpener;

/// Follows an authorization URL and its redirect in the background (on the current Tokio runtime).
#[derive(Debug, Clone, Copy, Default)]
pub struct HeadlessOpener;

impl BrowserOpener for HeadlessOpener {
    fn open(&self, url: &str) -> Result<(), String> {
        let url = url.to_string();
        let runtime = tokio::runtime::Handle::try_current().map_err(|e| e.to_string())?;
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| e.to_string())?;
        runtime.spawn(async move {
            let location = match client.get(&url).send().await {
                Ok(r) => r
                    .headers()
                    .get(reqwest::header::LOCATION)
                    .and_then(|l| l.to_str().ok())
                    .map(str::to_string),
                Err(e) => return eprintln!("GET {url} failed: {e}"),
            };
            match location {
                Some(to) => {
                    if let Err(e) = client.get(&to).send().await {
                        eprintln!("GET {to} failed: {e}");
                    }
                }
                None => eprintln!("the authorization page did not redirect"),
            }
        });
        Ok(())
    }
}

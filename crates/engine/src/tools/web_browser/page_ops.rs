//! What the tool does on the page over the DevTools protocol: load a URL and wait for its load event, read the
//! page's text (or one element's), click an element or type into it and wait for the navigation that may start,
//! take a screenshot. Each `Err` is a sentence for the model.

use std::time::Duration;

use chromiumoxide::Page;
use chromiumoxide::cdp::browser_protocol::page::{
    CaptureScreenshotFormat, EventFrameRequestedNavigation, EventFrameStartedLoading,
    EventLoadEventFired, StopLoadingParams,
};
use chromiumoxide::page::ScreenshotParams;
use futures::StreamExt;

/// How long after a click or a key a navigation it starts must have begun for it to be waited for. Chromium
/// reports the navigation a click asks for before it answers the click, so this only bounds the wait on a page
/// that does not navigate.
const SETTLE: Duration = Duration::from_millis(500);

/// Where the page is: its URL and title.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    pub url: String,
    pub title: String,
}

/// Loads `url` and waits for its load event, within `timeout`. A page that does not load in time is stopped; one
/// that cannot be loaded (no server, a bad certificate) is an `Err` with the browser's reason.
///
/// The page is sent to `url` from inside it (`location.href`), not with the protocol's navigate command: the
/// protocol library queues that command behind a navigation that never finished, so one page that never loads
/// would hold every later one.
pub async fn navigate(page: &Page, url: &str, timeout: Duration) -> Result<Place, String> {
    let failed = |e: chromiumoxide::error::CdpError| format!("{url} could not be loaded: {e}");
    let mut loaded = page
        .event_listener::<EventLoadEventFired>()
        .await
        .map_err(failed)?;
    let target = serde_json::to_string(url).map_err(|e| e.to_string())?;
    let load = async {
        page.evaluate(format!("window.location.href = {target}; true"))
            .await
            .map_err(failed)?;
        loaded.next().await;
        Ok::<(), String>(())
    };
    match tokio::time::timeout(timeout, load).await {
        Ok(done) => done?,
        Err(_) => {
            stop(page).await;
            return Err(format!(
                "{url} did not finish loading within {} s.",
                timeout.as_secs()
            ));
        }
    }
    let place = place(page).await?;
    if place.url.starts_with("chrome-error:") {
        let why = text(page, None).await.unwrap_or_default();
        let why = why.split_whitespace().collect::<Vec<_>>().join(" ");
        return Err(format!("{url} could not be loaded: {why}"));
    }
    Ok(place)
}

/// Stops the page loading (best effort: a browser that does not answer soon is left as it is).
async fn stop(page: &Page) {
    let _ = tokio::time::timeout(
        Duration::from_secs(5),
        page.execute(StopLoadingParams::default()),
    )
    .await;
}

/// The page's URL and title now, as the page itself says them.
pub async fn place(page: &Page) -> Result<Place, String> {
    let (url, title): (String, String) = page
        .evaluate("[String(location.href), String(document.title)]")
        .await
        .map_err(|e| format!("The browser did not say where the page is: {e}"))?
        .into_value()
        .map_err(|e| format!("The browser did not say where the page is: {e}"))?;
    Ok(Place { url, title })
}

/// The text a person sees on the page (`innerText`), of the first element matching `selector` when one is given.
pub async fn text(page: &Page, selector: Option<&str>) -> Result<String, String> {
    let target = match selector {
        Some(s) => format!(
            "document.querySelector({})",
            serde_json::to_string(s).map_err(|e| e.to_string())?
        ),
        None => "(document.body || document.documentElement)".into(),
    };
    let script = format!(
        "(() => {{ const el = {target}; return el ? (el.innerText ?? el.textContent ?? '') : null; }})()"
    );
    let value: Option<String> = page
        .evaluate(script)
        .await
        .map_err(|e| match selector {
            Some(s) => format!("The selector {s:?} could not be used: {e}"),
            None => format!("The page's text could not be read: {e}"),
        })?
        .into_value()
        .unwrap_or(None);
    match (value, selector) {
        (Some(text), _) => Ok(text),
        (None, Some(s)) => Err(format!("No element on the page matches {s:?}.")),
        (None, None) => Ok(String::new()),
    }
}

/// What an interaction does to the page.
#[derive(Debug, Clone, Copy)]
pub enum Interaction<'a> {
    Click,
    /// Types the text into the element; `submit` presses Enter after it.
    Type {
        text: &'a str,
        submit: bool,
    },
}

/// Clicks the element matching `selector` or types into it, then, when that started a navigation, waits for the
/// new page's load event within `timeout`. Returns whether the page navigated.
pub async fn interact(
    page: &Page,
    selector: &str,
    what: Interaction<'_>,
    timeout: Duration,
) -> Result<bool, String> {
    let element = page
        .find_element(selector)
        .await
        .map_err(|e| format!("No element on the page matches {selector:?} ({e})."))?;
    let failed = |e: chromiumoxide::error::CdpError| format!("{selector:?}: {e}");
    let started = page
        .event_listener::<EventFrameStartedLoading>()
        .await
        .map_err(failed)?;
    let requested = page
        .event_listener::<EventFrameRequestedNavigation>()
        .await
        .map_err(failed)?;
    let mut loaded = page
        .event_listener::<EventLoadEventFired>()
        .await
        .map_err(failed)?;
    match what {
        Interaction::Click => {
            element.click().await.map_err(failed)?;
        }
        Interaction::Type { text, submit } => {
            element
                .focus()
                .await
                .map_err(failed)?
                .type_str(text)
                .await
                .map_err(failed)?;
            if submit {
                element.press_key("Enter").await.map_err(failed)?;
            }
        }
    }
    let mut began = futures::stream::select(started.map(|_| ()), requested.map(|_| ()));
    if tokio::time::timeout(SETTLE, began.next()).await.is_err() {
        return Ok(false);
    }
    match tokio::time::timeout(timeout, loaded.next()).await {
        Ok(_) => Ok(true),
        Err(_) => {
            stop(page).await;
            Err(format!(
                "The page the action led to did not finish loading within {} s.",
                timeout.as_secs()
            ))
        }
    }
}

/// A PNG of the page's window as it is now.
pub async fn screenshot(page: &Page) -> Result<Vec<u8>, String> {
    page.screenshot(
        ScreenshotParams::builder()
            .format(CaptureScreenshotFormat::Png)
            .build(),
    )
    .await
    .map_err(|e| format!("The screenshot failed: {e}"))
}

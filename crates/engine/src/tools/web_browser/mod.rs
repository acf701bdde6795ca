//! WebBrowser (behind [`crate::tools::features::WEB_BROWSER_ENV`]): the model drives a real headless Chromium over
//! the DevTools protocol — navigate to a URL, read the page's text, click, type, take a screenshot, close. One
//! browser per session, started on first use with a fresh temporary profile (`launch`) and killed with the session
//! (`reaper`: the session keeps the tool's [`SessionGuard`]) or by `close`. A URL is checked as WebFetch checks it and judged by the same domain
//! rules (`WebFetch(domain:…)` rules cover the browser; `WebBrowser(domain:…)` rules cover the browser alone); a
//! loopback or private address asks unless a rule names the host. Clicking and typing are judged as acting on the
//! current page's host; a page that leads to another host is left, and the model told to navigate there itself.

mod launch;
mod page_ops;
mod reaper;
mod shot;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use schemars::JsonSchema;
use serde::Deserialize;
use tandem_protocol::{RenderHints, ToolDetail, ToolKind};

use crate::model::{ResultBlock, ToolResultContent};
use crate::tool::{
    InterruptBehavior, PermissionSubject, Tool, ToolContext, ToolError, ToolOutput, names,
};
use crate::tools::web_fetch::{checked_url, first_private, host_of, known_private};
use launch::Running;
pub use launch::{CHROMIUM_ENV, find_chromium};
use page_ops::{Interaction, Place};
use reaper::Reaper;
pub use reaper::SessionGuard;

/// What the browser does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Load `url` and wait for it; returns the title, the final URL and the page's text.
    Navigate,
    /// The current page's text, or the text of the element `selector` matches.
    Read,
    /// Click the element `selector` matches; waits for a page it leads to.
    Click,
    /// Type `text` into the element `selector` matches; `submit` presses Enter after it.
    Type,
    /// A screenshot of the page's window, as an image.
    Screenshot,
    /// Close the browser (the next action starts a fresh one, with no cookies or history).
    Close,
}

impl Action {
    /// The action as the model writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Navigate => "navigate",
            Self::Read => "read",
            Self::Click => "click",
            Self::Type => "type",
            Self::Screenshot => "screenshot",
            Self::Close => "close",
        }
    }
}

/// The input of WebBrowser.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WebBrowserInput {
    pub action: Action,
    /// For `navigate`: the http or https URL to load (http is upgraded to https except on this machine).
    pub url: Option<String>,
    /// For `click` and `type` (and optionally `read`): a CSS selector, e.g. `#search`, `form button[type=submit]`.
    pub selector: Option<String>,
    /// For `type`: the text to type.
    pub text: Option<String>,
    /// For `type`: press Enter after typing (submits a form). Default false.
    pub submit: Option<bool>,
}

/// Limits of the tool and which Chromium it starts.
#[derive(Debug, Clone)]
pub struct WebBrowserOptions {
    /// The Chromium program ([`CHROMIUM_ENV`]); `None`: the usual names on `PATH`.
    pub chromium: Option<PathBuf>,
    /// Time allowed for the browser to start.
    pub start_timeout: Duration,
    /// Time allowed for a page to load.
    pub load_timeout: Duration,
    /// Most characters of a page's text returned.
    pub max_text_chars: usize,
}

impl Default for WebBrowserOptions {
    fn default() -> Self {
        Self {
            chromium: None,
            start_timeout: Duration::from_secs(60),
            load_timeout: Duration::from_secs(30),
            max_text_chars: 40_000,
        }
    }
}

impl WebBrowserOptions {
    /// The defaults, with the program [`CHROMIUM_ENV`] names.
    pub fn from_env() -> Self {
        Self {
            chromium: std::env::var_os(CHROMIUM_ENV)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from),
            ..Self::default()
        }
    }
}

/// Where the page is, for judging the next click or typing.
#[derive(Debug, Clone)]
struct Current {
    url: String,
    /// The non-public address its host was found to be when it was navigated to.
    private_address: Option<String>,
}

/// Most host resolutions kept between a call's validation and its run.
const MAX_PENDING: usize = 64;

/// The WebBrowser tool of one session: its browser lives as long as the tool.
#[derive(Debug)]
pub struct WebBrowserTool {
    options: WebBrowserOptions,
    browser: tokio::sync::Mutex<Option<Running>>,
    reaper: Reaper,
    current: Mutex<Option<Current>>,
    /// The addresses each pending navigation's host resolved to, by tool_use id.
    resolved: Mutex<HashMap<String, Vec<SocketAddr>>>,
}

impl Default for WebBrowserTool {
    fn default() -> Self {
        Self::new(WebBrowserOptions::from_env())
    }
}

fn locked<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    match m.lock() {
        Ok(g) => g,
        Err(poisoned) => poisoned.into_inner(),
    }
}

impl WebBrowserTool {
    pub fn new(options: WebBrowserOptions) -> Self {
        Self {
            options,
            browser: tokio::sync::Mutex::new(None),
            reaper: Reaper::default(),
            current: Mutex::new(None),
            resolved: Mutex::new(HashMap::new()),
        }
    }

    /// What the session keeps so that its browser ends with it, even where the tool outlives it.
    pub fn session_guard(&self) -> SessionGuard {
        SessionGuard(self.reaper.clone())
    }

    /// The non-public address `url`'s host is: a literal or a loopback name at once, else what the validation's
    /// lookup for this call found.
    fn private_address(&self, url: &reqwest::Url, tool_use_id: &str) -> Option<String> {
        known_private(&host_of(url)).or_else(|| {
            locked(&self.resolved)
                .get(tool_use_id)
                .and_then(|addrs| first_private(addrs))
        })
    }

    fn set_current(&self, current: Option<Current>) {
        *locked(&self.current) = current;
    }

    /// Runs `action` on the session's page, starting the browser first if it is not running.
    async fn on_page(
        &self,
        input: &WebBrowserInput,
        ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let mut browser = self.browser.lock().await;
        if browser.as_ref().is_some_and(|b| !b.is_alive()) {
            // It exited or crashed: a fresh one starts (its page, cookies and history are gone).
            *browser = None;
            self.set_current(None);
        }
        if browser.is_none() {
            let program =
                find_chromium(self.options.chromium.as_deref()).map_err(ToolError::ToModel)?;
            let started = launch::start(
                &program,
                self.options.start_timeout,
                self.options.load_timeout + Duration::from_secs(5),
                &self.reaper,
            )
            .await
            .map_err(ToolError::ToModel)?;
            *browser = Some(started);
        }
        let Some(running) = browser.as_ref() else {
            return Err(ToolError::to_model("The browser is not running."));
        };
        let page = &running.page;
        let timeout = self.options.load_timeout;
        let max = self.options.max_text_chars;
        match input.action {
            Action::Navigate => {
                let raw = input.url.as_deref().unwrap_or_default();
                let url = checked_url(raw).map_err(ToolError::ToModel)?;
                let private_address = self.private_address(&url, &ctx.tool_use_id);
                locked(&self.resolved).remove(&ctx.tool_use_id);
                let place = page_ops::navigate(page, url.as_str(), timeout)
                    .await
                    .map_err(ToolError::ToModel)?;
                if let Some(moved) = self.left_host(page, &host_of(&url), &place).await {
                    return Ok(moved);
                }
                self.set_current(Some(Current {
                    url: place.url.clone(),
                    private_address,
                }));
                page_text(page, None, &place, max, "navigate").await
            }
            Action::Read => {
                let place = page_ops::place(page).await.map_err(ToolError::ToModel)?;
                if let Some(moved) = self.left_host(page, &self.approved_host(), &place).await {
                    return Ok(moved);
                }
                page_text(page, input.selector.as_deref(), &place, max, "read").await
            }
            Action::Click | Action::Type => {
                let selector = input.selector.as_deref().unwrap_or_default();
                let what = match input.action {
                    Action::Click => Interaction::Click,
                    _ => Interaction::Type {
                        text: input.text.as_deref().unwrap_or_default(),
                        submit: input.submit.unwrap_or(false),
                    },
                };
                let host = self.approved_host();
                let before = page_ops::place(page).await.map_err(ToolError::ToModel)?;
                if let Some(moved) = self.left_host(page, &host, &before).await {
                    return Ok(moved);
                }
                page_ops::interact(page, selector, what, timeout)
                    .await
                    .map_err(ToolError::ToModel)?;
                let place = page_ops::place(page).await.map_err(ToolError::ToModel)?;
                if let Some(moved) = self.left_host(page, &host, &place).await {
                    return Ok(moved);
                }
                let private_address = locked(&self.current)
                    .as_ref()
                    .and_then(|c| c.private_address.clone());
                self.set_current(Some(Current {
                    url: place.url.clone(),
                    private_address,
                }));
                page_text(page, None, &place, max, input.action.as_str()).await
            }
            Action::Screenshot => {
                let place = page_ops::place(page).await.map_err(ToolError::ToModel)?;
                if let Some(moved) = self.left_host(page, &self.approved_host(), &place).await {
                    return Ok(moved);
                }
                let png = page_ops::screenshot(page)
                    .await
                    .map_err(ToolError::ToModel)?;
                let (image, preview) = shot::screenshot_blocks(&png).map_err(ToolError::ToModel)?;
                let caption = format!("Screenshot of {} ({})", place.url, place.title);
                Ok(ToolOutput {
                    content: ToolResultContent::Blocks(vec![
                        ResultBlock::Text { text: caption },
                        image,
                    ]),
                    detail: Some(detail("screenshot", &place, Some(preview))),
                    context_change: None,
                    new_messages: Vec::new(),
                    structured: None,
                })
            }
            Action::Close => Err(ToolError::to_model("close is not a page action.")),
        }
    }

    /// The host the rules last judged for this page (empty before any navigation).
    fn approved_host(&self) -> String {
        locked(&self.current)
            .as_ref()
            .map(|c| url_host(&c.url))
            .unwrap_or_default()
    }

    /// When the page ended on another host than `host` (a redirect, a link, a form), leaves it for a blank page
    /// and says where it led: what another host shows is not read before the rules have judged it.
    async fn left_host(
        &self,
        page: &chromiumoxide::Page,
        host: &str,
        place: &Place,
    ) -> Option<ToolOutput> {
        let now = url_host(&place.url);
        if now == host || now.is_empty() {
            return None;
        }
        let _ = page_ops::navigate(page, "about:blank", self.options.load_timeout).await;
        self.set_current(None);
        let blank = Place {
            url: "about:blank".into(),
            title: String::new(),
        };
        Some(
            ToolOutput::text(format!(
                "The page led to another host: {}\nIt was not read (the browser is on a blank page now). To \
                 read it, call WebBrowser with action \"navigate\" and url \"{}\".",
                place.url, place.url
            ))
            .with_detail(detail("navigate", &blank, None)),
        )
    }
}

/// The host of a URL the browser reports, as the rules see it (empty for `about:blank` and the like).
fn url_host(url: &str) -> String {
    reqwest::Url::parse(url)
        .map(|u| host_of(&u))
        .unwrap_or_default()
}

/// The result of an action that shows the page: where it is and its text, cut to `max` characters.
async fn page_text(
    page: &chromiumoxide::Page,
    selector: Option<&str>,
    place: &Place,
    max: usize,
    action: &str,
) -> Result<ToolOutput, ToolError> {
    let text = page_ops::text(page, selector)
        .await
        .map_err(ToolError::ToModel)?;
    let shown = cut(&text, max);
    Ok(ToolOutput::text(format!(
        "URL: {}\nTitle: {}\n\n{shown}",
        place.url, place.title
    ))
    .with_detail(detail(action, place, None)))
}

/// `text` cut to `max` characters, saying how much was left out.
fn cut(text: &str, max: usize) -> String {
    let total = text.chars().count();
    if total <= max {
        return text.to_string();
    }
    let kept: String = text.chars().take(max).collect();
    format!(
        "{kept}\n\n[{} more characters left out: read a part of the page with a selector]",
        total - max
    )
}

fn detail(action: &str, place: &Place, preview: Option<String>) -> ToolDetail {
    ToolDetail::WebBrowser {
        action: action.to_string(),
        url: place.url.clone(),
        title: place.title.clone(),
        preview,
    }
}

impl Tool for WebBrowserTool {
    type Input = WebBrowserInput;

    fn name(&self) -> &'static str {
        names::WEB_BROWSER
    }

    fn description(&self) -> String {
        "Drives a real headless Chromium browser: for pages that need JavaScript, forms or clicks, or to see a \
         page as it looks.\n\
         - action \"navigate\" with url: loads the page (waits for it), returns its title, final URL and visible \
         text (cut when long).\n\
         - action \"read\": the current page's text, or the element's with selector (a CSS selector).\n\
         - action \"click\" with selector: clicks the element, waits for a page it leads to, returns the page's \
         text.\n\
         - action \"type\" with selector and text (submit: true presses Enter): types into a field.\n\
         - action \"screenshot\": an image of the page's window.\n\
         - action \"close\": closes the browser (cookies and history go with it).\n\
         The browser keeps its page, cookies and history between calls of this session. A page that leads to \
         another host is not read: navigate there yourself. To only read a page's text, WebFetch is cheaper."
            .into()
    }

    fn is_read_only(&self, input: &Self::Input) -> bool {
        matches!(
            input.action,
            Action::Navigate | Action::Read | Action::Screenshot
        )
    }

    fn interrupt_behavior(&self) -> InterruptBehavior {
        InterruptBehavior::Cancel
    }

    fn render_hints(&self, input: &Self::Input, _ctx: &ToolContext) -> RenderHints {
        let on = |what: Option<&String>| what.map(|s| format!(" {s}")).unwrap_or_default();
        let title = match input.action {
            Action::Navigate => format!("Browse{}", on(input.url.as_ref())),
            Action::Read => format!("Read the page{}", on(input.selector.as_ref())),
            Action::Click => format!("Click{}", on(input.selector.as_ref())),
            Action::Type => format!("Type into{}", on(input.selector.as_ref())),
            Action::Screenshot => "Screenshot of the page".into(),
            Action::Close => "Close the browser".into(),
        };
        RenderHints {
            kind: ToolKind::Fetch,
            title,
            collapsible: input.action == Action::Read,
        }
    }

    fn permission_subject(&self, input: &Self::Input, ctx: &ToolContext) -> PermissionSubject {
        match input.action {
            Action::Navigate => {
                let raw = input.url.clone().unwrap_or_default();
                match checked_url(&raw) {
                    Ok(url) => PermissionSubject::Fetch {
                        private_address: self.private_address(&url, &ctx.tool_use_id),
                        url: url.to_string(),
                    },
                    Err(_) => PermissionSubject::Fetch {
                        url: raw,
                        private_address: None,
                    },
                }
            }
            // Acting on the page sends what the site does with it there: judged as a fetch of its host.
            Action::Click | Action::Type => match locked(&self.current).clone() {
                Some(current) => PermissionSubject::Fetch {
                    private_address: current
                        .private_address
                        .or_else(|| known_private(&url_host(&current.url))),
                    url: current.url,
                },
                None => PermissionSubject::SessionOwned,
            },
            // Reading what the browser already shows, or closing it.
            Action::Read | Action::Screenshot | Action::Close => PermissionSubject::SessionOwned,
        }
    }

    async fn validate_input(&self, input: &Self::Input, ctx: &ToolContext) -> Result<(), String> {
        let need = |field: &Option<String>, name: &str| match field.as_deref() {
            Some(v) if !v.trim().is_empty() => Ok(()),
            _ => Err(format!(
                "WebBrowser action \"{}\" needs {name}.",
                input.action.as_str()
            )),
        };
        match input.action {
            Action::Navigate => need(&input.url, "url")?,
            Action::Click => need(&input.selector, "selector")?,
            Action::Type => {
                need(&input.selector, "selector")?;
                if input.text.is_none() {
                    return Err("WebBrowser action \"type\" needs text.".into());
                }
            }
            Action::Read | Action::Screenshot | Action::Close => return Ok(()),
        }
        if input.action != Action::Navigate {
            return Ok(());
        }
        let url = checked_url(input.url.as_deref().unwrap_or_default())?;
        let host = host_of(&url);
        if known_private(&host).is_some() || host.parse::<std::net::IpAddr>().is_ok() {
            return Ok(());
        }
        let port = url.port_or_known_default().unwrap_or(443);
        let lookup = tokio::time::timeout(
            Duration::from_secs(10),
            tokio::net::lookup_host((host.as_str(), port)),
        )
        .await
        .map_err(|_| format!("Looking up {host} took too long."))?
        .map_err(|e| format!("The host {host} could not be found: {e}"))?;
        let mut pending = locked(&self.resolved);
        if pending.len() >= MAX_PENDING {
            pending.clear();
        }
        pending.insert(ctx.tool_use_id.clone(), lookup.collect());
        Ok(())
    }

    async fn call(&self, input: &Self::Input, ctx: &ToolContext) -> Result<ToolOutput, ToolError> {
        if input.action == Action::Close {
            let was = self.browser.lock().await.take();
            self.set_current(None);
            let blank = Place {
                url: String::new(),
                title: String::new(),
            };
            let text = if was.is_some() {
                "The browser is closed; the next action starts a fresh one."
            } else {
                "The browser was not running."
            };
            return Ok(ToolOutput::text(text).with_detail(detail("close", &blank, None)));
        }
        tokio::select! {
            _ = ctx.cancel.cancelled() => Err(ToolError::Cancelled),
            done = self.on_page(input, ctx) => done,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_is_cut_with_a_note() {
        assert_eq!(cut("short", 10), "short");
        let cut = cut(&"é".repeat(30), 10);
        assert!(cut.starts_with(&"é".repeat(10)));
        assert!(cut.contains("20 more characters"), "{cut}");
    }

    #[test]
    fn the_host_of_a_page_is_read_as_the_rules_read_it() {
        assert_eq!(url_host("http://127.0.0.1:8080/x"), "127.0.0.1");
        assert_eq!(url_host("https://Example.COM./"), "example.com");
        assert_eq!(url_host("about:blank"), "");
    }
}

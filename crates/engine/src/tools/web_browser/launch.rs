//! Starting the session's Chromium: which program (`TANDEM_CHROMIUM`, else `chromium` and its usual other names on
//! `PATH`), started headless with a fresh temporary profile as the leader of its own process group, its DevTools
//! address read from what it prints, and one page opened over the protocol, whose dialogs (`alert`, `confirm`,
//! leaving a page) are answered at once so that they never hold it. Dropping a [`Running`] browser kills the whole
//! group and removes the profile.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use chromiumoxide::cdp::browser_protocol::page::{
    DialogType, EventJavascriptDialogOpening, HandleJavaScriptDialogParams,
};
use chromiumoxide::handler::HandlerConfig;
use chromiumoxide::handler::viewport::Viewport;
use chromiumoxide::{Browser, Page};
use futures::StreamExt;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, ChildStderr, Command};
use tokio::task::JoinHandle;

use super::reaper::Reaper;
use crate::process_group::GroupGuard;

/// Names the Chromium program to start (a path, or a name looked up on `PATH`).
pub const CHROMIUM_ENV: &str = "TANDEM_CHROMIUM";

/// The names a Chromium program goes by, tried in order on `PATH`.
const CHROMIUM_NAMES: &[&str] = &[
    "chromium",
    "chromium-browser",
    "google-chrome",
    "google-chrome-stable",
];

/// The size of the page's window, in CSS pixels (and of a screenshot).
pub const WINDOW: (u32, u32) = (1280, 800);

/// What Chromium prints once its DevTools endpoint listens.
const LISTENING: &str = "DevTools listening on ";

/// The Chromium program to start: `configured` (from [`CHROMIUM_ENV`]) if given, else the first of the usual names
/// found on `PATH`. An `Err` says what was looked for, for the model and the person.
pub fn find_chromium(configured: Option<&Path>) -> Result<PathBuf, String> {
    if let Some(path) = configured {
        if path.components().count() > 1 {
            return if path.is_file() {
                Ok(path.to_path_buf())
            } else {
                Err(format!(
                    "No Chromium at {} (set by {CHROMIUM_ENV}): the browser cannot start.",
                    path.display()
                ))
            };
        }
        return on_path(&path.to_string_lossy()).ok_or_else(|| {
            format!(
                "No program {} on PATH (set by {CHROMIUM_ENV}): the browser cannot start.",
                path.display()
            )
        });
    }
    CHROMIUM_NAMES
        .iter()
        .find_map(|name| on_path(name))
        .ok_or_else(|| {
            format!(
                "No Chromium found on PATH (looked for {}): install the chromium package or set {CHROMIUM_ENV} to \
                 the browser's path.",
                CHROMIUM_NAMES.join(", ")
            )
        })
}

fn on_path(name: &str) -> Option<PathBuf> {
    crate::fsutil::find_program(name, std::env::var_os("PATH").as_deref())
}

/// A started browser with its one page. Dropping it kills Chromium with everything it started and removes its
/// profile.
pub struct Running {
    pub page: Page,
    // Kept so that the protocol connection stays open.
    _browser: Browser,
    handler: JoinHandle<()>,
    dialogs: JoinHandle<()>,
    group: GroupGuard,
    reaper: Reaper,
    _child: Child,
    // Dropped after the group is killed (fields drop in order).
    _profile: tempfile::TempDir,
}

impl std::fmt::Debug for Running {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Running")
    }
}

impl Running {
    /// Whether the browser still answers: its protocol connection is open (it ends when Chromium exits or crashes).
    pub fn is_alive(&self) -> bool {
        !self.handler.is_finished()
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.handler.abort();
        self.dialogs.abort();
        self.group.kill();
        self.reaper.ended();
    }
}

/// Starts `program` and opens a page, within `timeout` for the whole start; the browser is noted in `reaper` while
/// it runs. An `Err` says why, for the model: the program could not run, exited, or did not answer in time.
pub async fn start(
    program: &Path,
    timeout: Duration,
    request_timeout: Duration,
    reaper: &Reaper,
) -> Result<Running, String> {
    let profile = tempfile::Builder::new()
        .prefix("tandem-browser-")
        .tempdir()
        .map_err(|e| format!("Cannot make a profile folder for the browser: {e}"))?;
    let mut command = Command::new(program);
    command
        .args(arguments(profile.path()))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .process_group(0);
    let mut child = command
        .spawn()
        .map_err(|e| format!("Cannot start the browser {}: {e}", program.display()))?;
    let mut group = child.id().map(GroupGuard::new);
    if let Some(pid) = child.id() {
        reaper.started(pid, profile.path().to_path_buf());
    }
    let Some(stderr) = child.stderr.take() else {
        return Err("The browser's output could not be read.".into());
    };
    let opened = tokio::time::timeout(timeout, async {
        let address = devtools_address(stderr).await?;
        let config = HandlerConfig {
            ignore_https_errors: false,
            viewport: Some(Viewport {
                width: WINDOW.0,
                height: WINDOW.1,
                ..Viewport::default()
            }),
            request_timeout,
            ..HandlerConfig::default()
        };
        let (browser, mut handler) = Browser::connect_with_config(address, config)
            .await
            .map_err(|e| format!("Cannot connect to the browser: {e}"))?;
        let handler = tokio::spawn(async move {
            // Messages it cannot read the handler skips itself (`ignore_invalid_messages`); an error here is the
            // connection's, which does not recover: the browser is taken as gone.
            while let Some(Ok(())) = handler.next().await {}
        });
        let opened = async {
            let page = browser.new_page("about:blank").await?;
            let dialogs = answer_dialogs(&page).await?;
            Ok::<_, chromiumoxide::error::CdpError>((page, dialogs))
        };
        match opened.await {
            Ok((page, dialogs)) => Ok((browser, handler, page, dialogs)),
            Err(e) => {
                handler.abort();
                Err(format!("The browser did not open a page: {e}"))
            }
        }
    })
    .await
    .unwrap_or_else(|_| {
        Err(format!(
            "The browser did not start within {} s.",
            timeout.as_secs()
        ))
    });
    match (opened, group.take()) {
        (Ok((browser, handler, page, dialogs)), Some(group)) => Ok(Running {
            page,
            _browser: browser,
            handler,
            dialogs,
            group,
            reaper: reaper.clone(),
            _child: child,
            _profile: profile,
        }),
        (Ok((_, handler, _, dialogs)), None) => {
            reaper.ended();
            handler.abort();
            dialogs.abort();
            Err("The browser exited as it started.".into())
        }
        (Err(e), group) => {
            if let Some(mut group) = group {
                group.kill();
            }
            reaper.ended();
            Err(e)
        }
    }
}

/// Answers the page's dialogs as they open: leaving a page is allowed, an `alert` is closed, a `confirm` or
/// `prompt` is cancelled. Nobody is there to answer them, and an open dialog holds the page.
async fn answer_dialogs(page: &Page) -> Result<JoinHandle<()>, chromiumoxide::error::CdpError> {
    let mut dialogs = page
        .event_listener::<EventJavascriptDialogOpening>()
        .await?;
    let page = page.clone();
    Ok(tokio::spawn(async move {
        while let Some(dialog) = dialogs.next().await {
            let leave = matches!(dialog.r#type, DialogType::Beforeunload);
            let _ = page.execute(HandleJavaScriptDialogParams::new(leave)).await;
        }
    }))
}

/// Chromium's arguments: headless, a fresh profile, no first-run pages, no background traffic of its own, the
/// DevTools endpoint on a free loopback port.
fn arguments(profile: &Path) -> Vec<String> {
    let mut args: Vec<String> = [
        "--headless=new",
        "--remote-debugging-port=0",
        "--remote-debugging-address=127.0.0.1",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-default-apps",
        "--disable-extensions",
        "--disable-sync",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--mute-audio",
        "--hide-scrollbars",
        "--password-store=basic",
        "--use-mock-keychain",
    ]
    .into_iter()
    .map(str::to_string)
    .collect();
    if rustix::process::geteuid().is_root() {
        // Chromium refuses to start as root with its sandbox on.
        args.push("--no-sandbox".into());
    }
    args.push(format!("--window-size={},{}", WINDOW.0, WINDOW.1));
    args.push(format!("--user-data-dir={}", profile.display()));
    args.push("about:blank".into());
    args
}

/// The DevTools address Chromium prints on its error output; the rest of that output is read and dropped in the
/// background so that Chromium never blocks on a full pipe. An `Err` when it exits first, with its last lines.
async fn devtools_address(stderr: ChildStderr) -> Result<String, String> {
    let mut lines = BufReader::new(stderr).lines();
    let mut last = Vec::new();
    while let Ok(Some(line)) = lines.next_line().await {
        if let Some(address) = line.split(LISTENING).nth(1) {
            let address = address.trim().to_string();
            tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
            return Ok(address);
        }
        if last.len() == 5 {
            last.remove(0);
        }
        last.push(line);
    }
    Err(format!(
        "The browser exited before it was ready:\n{}",
        last.join("\n")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_configured_path_that_is_missing_is_a_clear_error() {
        let missing = Path::new("/nonexistent/chromium");
        let err = find_chromium(Some(missing)).expect_err("missing");
        assert!(
            err.contains("/nonexistent/chromium") && err.contains(CHROMIUM_ENV),
            "{err}"
        );
        let err = find_chromium(Some(Path::new("no-such-browser-program"))).expect_err("missing");
        assert!(err.contains("no-such-browser-program"), "{err}");
    }

    #[test]
    fn the_profile_is_fresh_and_the_debugging_port_loopback() {
        let args = arguments(Path::new("/tmp/p"));
        assert!(args.contains(&"--headless=new".to_string()));
        assert!(args.contains(&"--user-data-dir=/tmp/p".to_string()));
        assert!(args.contains(&"--remote-debugging-address=127.0.0.1".to_string()));
    }
}

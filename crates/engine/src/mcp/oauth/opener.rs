//! Opening an authorization URL for the person: the desktop's URL opener (`xdg-open`, `open`), behind a trait so
//! that a program without a person (a test, the conformance adapter) follows the URL itself.

use std::sync::Arc;

/// Shows an authorization URL to whoever signs in.
///
/// Contract: `open` returns once the URL is handed over (it does not wait for the sign-in); an error says why the
/// URL could not be shown, and the caller then gives the URL to the person to open themselves. It is never
/// cancelled: the sign-in it leads to ends on its own (redirect received, or the flow's timeout).
pub trait BrowserOpener: Send + Sync {
    fn open(&self, url: &str) -> Result<(), String>;
}

/// The desktop's URL opener.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemOpener;

impl BrowserOpener for SystemOpener {
    fn open(&self, url: &str) -> Result<(), String> {
        let program = if cfg!(target_os = "macos") {
            "open"
        } else {
            "xdg-open"
        };
        std::process::Command::new(program)
            .arg(url)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .map(|mut child| {
                // Reaped in the background: the opener exits once the browser has the URL.
                std::thread::spawn(move || child.wait());
            })
            .map_err(|e| format!("could not run `{program}` to open the browser: {e}"))
    }
}

/// The shared opener type.
pub type Opener = Arc<dyn BrowserOpener>;

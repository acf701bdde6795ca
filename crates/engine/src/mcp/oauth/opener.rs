//! Opening an authorization URL for the person: the desktop's URL opener (`xdg-open`, `open`), behind a trait so
//! that a program without a person (a test, the conformance adapter) follows the URL itself, and the desktop app
//! opens it through its own opener plugin ([`set_standard_opener`]). The engine has no GUI library, so its own
//! opener runs the desktop's program by hand.

use std::sync::{Arc, OnceLock};

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

static STANDARD: OnceLock<Opener> = OnceLock::new();

/// Sets the opener sessions of this process show authorization pages with (the app's opener plugin); the first
/// call wins. Without one, [`standard_opener`] is the desktop's program ([`SystemOpener`]).
pub fn set_standard_opener(opener: Opener) {
    let _ = STANDARD.set(opener);
}

/// The opener set for this process, else [`SystemOpener`].
pub fn standard_opener() -> Opener {
    STANDARD
        .get()
        .cloned()
        .unwrap_or_else(|| Arc::new(SystemOpener))
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;

    struct Recording(Mutex<Vec<String>>);

    impl BrowserOpener for Recording {
        fn open(&self, url: &str) -> Result<(), String> {
            self.0
                .lock()
                .map_err(|e| e.to_string())?
                .push(url.to_string());
            Ok(())
        }
    }

    #[test]
    fn the_opener_set_for_the_process_is_the_standard_one() {
        let recording = Arc::new(Recording(Mutex::new(Vec::new())));
        set_standard_opener(recording.clone());
        set_standard_opener(Arc::new(SystemOpener));
        let setup = crate::mcp::ClientSetup::standard();
        setup
            .opener
            .open("https://auth.example/authorize")
            .expect("opened");
        assert_eq!(
            *recording.0.lock().expect("lock"),
            vec!["https://auth.example/authorize".to_string()]
        );
    }
}

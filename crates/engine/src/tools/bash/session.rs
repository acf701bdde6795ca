//! The shell state one session's Bash, TaskOutput and TaskStop tools share: the working directory carried from
//! call to call, the background shells, where their files go, and the sandbox.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use super::background::BackgroundShells;
use super::proxy::Proxy;
use super::sandbox::Sandbox;

/// A session's shell state.
#[derive(Debug)]
pub struct ShellSession {
    /// Where the next command starts, with the session's directory it was remembered in; `None` until a command
    /// changed it (the session's directory then).
    cwd: Mutex<Option<(PathBuf, PathBuf)>>,
    /// Where the tool keeps its files (background logs, working-directory records).
    dir: PathBuf,
    pub tasks: BackgroundShells,
    /// A sandbox chosen in code instead of by the settings: `Some(None)` never sandboxes, `Some(Some(_))` always
    /// does (with the settings' network and writable folders); `None` follows the settings.
    pub sandbox: Option<Option<Sandbox>>,
    /// Whether the person was told that the sandbox is enabled but cannot run.
    warned_unavailable: AtomicBool,
    /// Proxies of background commands, kept as long as the session.
    proxies: Mutex<Vec<Proxy>>,
    /// Whether `dir` is removed with the state (a temporary folder).
    temporary: bool,
}

impl ShellSession {
    /// Shell state keeping its files in `dir` (e.g. `<session dir>/shell`), sandboxed when the settings say so.
    pub fn new(dir: PathBuf) -> Self {
        Self {
            cwd: Mutex::new(None),
            tasks: BackgroundShells::new(dir.join("tasks")),
            dir,
            sandbox: None,
            warned_unavailable: AtomicBool::new(false),
            proxies: Mutex::new(Vec::new()),
            temporary: false,
        }
    }

    /// Shell state in a fresh folder of the system's temporary directory (tests, one-shot uses).
    pub fn temporary() -> Self {
        let mut shell =
            Self::new(std::env::temp_dir().join(format!("tandem-shell-{}", uuid::Uuid::new_v4())));
        shell.temporary = true;
        shell
    }

    /// The same state without a sandbox.
    pub fn without_sandbox(mut self) -> Self {
        self.sandbox = Some(None);
        self
    }

    /// The same state with `sandbox` (or none) whatever the settings say.
    pub fn with_sandbox(mut self, sandbox: Option<Sandbox>) -> Self {
        self.sandbox = Some(sandbox);
        self
    }

    /// True the first time it is called (the warning that the sandbox cannot run is given once).
    pub(super) fn first_unavailable_warning(&self) -> bool {
        !self.warned_unavailable.swap(true, Ordering::SeqCst)
    }

    /// Keeps a background command's proxy running as long as the session.
    pub(super) fn keep_proxy(&self, proxy: Proxy) {
        if let Ok(mut kept) = self.proxies.lock() {
            kept.push(proxy);
        }
    }

    /// Where the tool keeps its files.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Where the next command starts: the directory remembered while the session worked in `root`, or `root`
    /// (a directory remembered for another root is forgotten: the session moved, e.g. into a worktree).
    pub fn cwd_or(&self, root: &Path) -> PathBuf {
        self.cwd
            .lock()
            .ok()
            .and_then(|c| c.clone())
            .filter(|(base, _)| base == root)
            .map(|(_, cwd)| cwd)
            .unwrap_or_else(|| root.to_path_buf())
    }

    /// Remembers where the next command starts while the session works in `root`.
    pub fn set_cwd(&self, root: &Path, cwd: PathBuf) {
        if let Ok(mut slot) = self.cwd.lock() {
            *slot = Some((root.to_path_buf(), cwd));
        }
    }
}

impl Drop for ShellSession {
    fn drop(&mut self) {
        if self.temporary {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

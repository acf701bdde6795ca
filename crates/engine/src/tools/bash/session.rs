//! The shell state one session's Bash, TaskOutput and TaskStop tools share: the working directory carried from
//! call to call, the background shells, the foreground commands that may still move there (and when they do by
//! themselves), where their files go, and the sandbox.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio_util::sync::CancellationToken;

use super::background::BackgroundShells;
use crate::events::EventSink;
use crate::sandbox::{Proxy, Sandbox};

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
    /// The foreground commands running now, by call id, each with the token that moves it to the background.
    foreground: Mutex<HashMap<String, CancellationToken>>,
    /// A command still running at its timeout moves to the background instead of being killed (a person follows
    /// the session and can stop it; a one-shot run, which ends with its turn, kills it).
    background_at_timeout: bool,
    /// How long a command of the session's own agent may hold the turn before it moves to the background by
    /// itself (the assistant mode's blocking budget); `None`: until its timeout.
    blocking_budget: Option<Duration>,
}

/// The assistant mode's blocking budget: a foreground command of the session's own agent moves to the background
/// after this long.
pub const ASSISTANT_BLOCKING_BUDGET: Duration = Duration::from_secs(15);

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
            foreground: Mutex::new(HashMap::new()),
            background_at_timeout: false,
            blocking_budget: None,
        }
    }

    /// The same state announcing its background shells' starts and ends to `events`.
    pub fn with_events(mut self, events: Arc<dyn EventSink>) -> Self {
        self.tasks.announce_to(events);
        self
    }

    /// The same state where a command still running at its timeout moves to the background instead of being
    /// killed (when a person follows the session).
    pub fn background_at_timeout(mut self, on: bool) -> Self {
        self.background_at_timeout = on;
        self
    }

    /// The same state where a command of the session's own agent moves to the background after `budget`.
    pub fn with_blocking_budget(mut self, budget: Option<Duration>) -> Self {
        self.blocking_budget = budget;
        self
    }

    /// Whether a command still running at its timeout moves to the background.
    pub fn backgrounds_at_timeout(&self) -> bool {
        self.background_at_timeout
    }

    /// The blocking budget of the session's own agent's commands.
    pub fn blocking_budget(&self) -> Option<Duration> {
        self.blocking_budget
    }

    /// Moves the running foreground command of call `tool_use_id` (every running one when `None`) to the
    /// background; returns how many were asked to move.
    pub fn send_to_background(&self, tool_use_id: Option<&str>) -> usize {
        let Ok(running) = self.foreground.lock() else {
            return 0;
        };
        let mut moved = 0;
        for (id, token) in running.iter() {
            if tool_use_id.is_none_or(|wanted| wanted == id) && !token.is_cancelled() {
                token.cancel();
                moved += 1;
            }
        }
        moved
    }

    /// The call ids of the foreground commands running now.
    pub fn running_foreground(&self) -> Vec<String> {
        self.foreground
            .lock()
            .map(|f| f.keys().cloned().collect())
            .unwrap_or_default()
    }

    /// Registers a running foreground command; the returned token fires when it is to move to the background, and
    /// dropping the registration forgets it.
    pub(super) fn register_foreground(&self, tool_use_id: &str) -> Foreground<'_> {
        let token = CancellationToken::new();
        if let Ok(mut running) = self.foreground.lock() {
            running.insert(tool_use_id.to_string(), token.clone());
        }
        Foreground {
            shell: self,
            id: tool_use_id.to_string(),
            token,
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

/// A registered foreground command (see [`ShellSession::register_foreground`]).
pub(super) struct Foreground<'a> {
    shell: &'a ShellSession,
    id: String,
    pub token: CancellationToken,
}

impl Drop for Foreground<'_> {
    fn drop(&mut self) {
        if let Ok(mut running) = self.shell.foreground.lock() {
            running.remove(&self.id);
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

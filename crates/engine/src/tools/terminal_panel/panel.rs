//! One terminal panel: the person's shell (`$SHELL`, else bash) in a PTY in the session's folder, with its screen
//! and scrollback, what it runs in the foreground, and the kill of everything it started when it is closed.

use std::path::Path;

use crate::process_group::kill_session;
use crate::tools::bash::Exit;
use crate::tools::bash::pty::Launch;
use crate::tools::tungsten::terminal::{Listener, Snapshot, Terminal};

/// How many lines that scrolled off the panel's screen are kept for TerminalCapture.
pub const SCROLLBACK_LINES: usize = 5_000;

/// A shell in the panel; dropping it kills the shell and every job it started.
#[derive(Debug)]
pub struct TerminalPanel {
    terminal: Terminal,
    /// The shell's program, as started.
    pub shell: String,
}

impl TerminalPanel {
    /// Starts the person's shell (the program `shell` names, else `bash`) in `cwd` in a terminal of `rows` by
    /// `cols`, on the current async runtime.
    pub fn start(shell: Option<String>, cwd: &Path, rows: u16, cols: u16) -> Result<Self, String> {
        let shell = shell
            .filter(|s| !s.trim().is_empty())
            .unwrap_or_else(|| "bash".to_string());
        let launch = Launch {
            program: shell.clone(),
            args: Vec::new(),
            cwd: cwd.to_path_buf(),
            env: Vec::new(),
            size: Some((rows, cols)),
        };
        let terminal = Terminal::start_with_scrollback(&launch, &shell, SCROLLBACK_LINES)
            .map_err(|e| format!("the shell {shell} could not be started: {e}"))?;
        Ok(Self { terminal, shell })
    }

    /// The shell's pid (it leads the terminal's session).
    pub fn pid(&self) -> u32 {
        self.terminal.pid
    }

    /// Sends the shell's output to `listener`, which first hears (as is returned) what redraws the screen now.
    pub fn watch(&self, listener: Listener) -> Vec<u8> {
        self.terminal.watch(listener)
    }

    /// Stops sending the output anywhere (the window went).
    pub fn unwatch(&self) {
        self.terminal.unwatch();
    }

    /// Types `bytes` (the person's keys) into the shell.
    pub fn type_bytes(&self, bytes: &[u8]) -> Result<(), String> {
        self.terminal.type_bytes(bytes)
    }

    /// Gives the panel `rows` by `cols`.
    pub fn resize(&self, rows: u16, cols: u16) -> Result<(), String> {
        self.terminal.resize(rows, cols)
    }

    /// The screen now.
    pub fn snapshot(&self) -> Snapshot {
        self.terminal.snapshot()
    }

    /// The last `count` lines of scrollback and screen.
    pub fn last_lines(&self, count: usize) -> Vec<String> {
        self.terminal.last_lines(count)
    }

    /// How the shell ended, once it has.
    pub fn exit(&self) -> Option<Exit> {
        self.terminal.snapshot().exit
    }

    /// The program running in the shell's foreground (its name where it can be read, else its process group id);
    /// `None` while the shell waits at its prompt, or where it cannot be told.
    pub fn running_program(&self) -> Option<String> {
        let group = self.terminal.foreground_job()?;
        Some(program_name(group).unwrap_or_else(|| format!("process group {group}")))
    }
}

impl Drop for TerminalPanel {
    fn drop(&mut self) {
        let foreground: Vec<u32> = self.terminal.foreground_job().into_iter().collect();
        kill_session(self.terminal.pid, &foreground);
    }
}

/// The name of the program `pid` runs, where the system tells it (`/proc`).
fn program_name(pid: u32) -> Option<String> {
    std::fs::read_to_string(format!("/proc/{pid}/comm"))
        .ok()
        .map(|name| name.trim().to_string())
        .filter(|name| !name.is_empty())
}

//! One terminal of the Tungsten tool (and of the window's terminal panel): a program in a PTY (the Bash tool's), its
//! output kept as a screen by a terminal emulator (`vt100`, with scrollback when asked), keys typed into it, resizing,
//! a listener that hears its raw output as it comes, and the wait until its output is quiet, a pattern shows on the
//! screen or it exits. Dropping it kills the program's process group.

use std::io::Write;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use regex::Regex;
use tokio::sync::Notify;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use crate::process_group::GroupGuard;
use crate::tools::bash::Exit;
use crate::tools::bash::pty::{Launch, PtyControl, PtyProcess, spawn};

/// How long the output must be still before a wait without a pattern ends.
pub const QUIET: Duration = Duration::from_millis(300);

/// What a listener of a terminal hears ([`Terminal::watch`]).
#[derive(Debug)]
pub enum Heard<'a> {
    /// Raw output of the program, as it came (escapes and all).
    Output(&'a [u8]),
    /// The program exited.
    Exited(&'a Exit),
}

/// Hears a terminal's output; called with the terminal's state locked, so it must not block.
pub type Listener = Box<dyn Fn(Heard<'_>) + Send>;

/// What the screen and the program's state are, shared with the task reading its output.
struct State {
    parser: vt100::Parser,
    /// When the program last wrote something (or was last typed into).
    last_activity: Instant,
    exit: Option<Exit>,
    listener: Option<Listener>,
}

impl State {
    /// Reads `bytes` into the screen and tells the listener.
    fn feed(&mut self, bytes: &[u8]) {
        self.parser.process(bytes);
        self.last_activity = Instant::now();
        if let Some(listener) = &self.listener {
            listener(Heard::Output(bytes));
        }
    }

    fn exited(&mut self, exit: Exit) {
        if let Some(listener) = &self.listener {
            listener(Heard::Exited(&exit));
        }
        self.exit = Some(exit);
    }
}

/// A running (or ended) program in a terminal.
pub struct Terminal {
    pub pid: u32,
    /// What started it, for the listing.
    pub command: String,
    state: Arc<Mutex<State>>,
    changed: Arc<Notify>,
    keyboard: Mutex<Box<dyn Write + Send>>,
    control: PtyControl,
    guard: Mutex<GroupGuard>,
}

impl std::fmt::Debug for Terminal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Terminal")
            .field("pid", &self.pid)
            .field("command", &self.command)
            .finish()
    }
}

/// Why a wait ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Waited {
    /// The output was quiet for [`QUIET`].
    Quiet,
    /// The pattern showed on the screen.
    Matched,
    /// The program exited.
    Exited,
    /// The time ran out first.
    TimedOut,
}

/// The screen as text, with where the cursor is and whether the program still runs.
#[derive(Debug, Clone)]
pub struct Snapshot {
    pub rows: Vec<String>,
    /// Row and column of the cursor, counted from 1.
    pub cursor: (u16, u16),
    pub size: (u16, u16),
    pub alternate: bool,
    pub exit: Option<Exit>,
}

impl Terminal {
    /// Starts `launch` in a terminal of `launch.size`, without scrollback; its output is read by a task on the
    /// current runtime.
    pub fn start(launch: &Launch, command: &str) -> Result<Self, String> {
        Self::start_with_scrollback(launch, command, 0)
    }

    /// Starts `launch` as [`Terminal::start`] does, keeping up to `scrollback` lines that scrolled off the screen.
    pub fn start_with_scrollback(
        launch: &Launch,
        command: &str,
        scrollback: usize,
    ) -> Result<Self, String> {
        let (rows, cols) = launch.size.unwrap_or((24, 80));
        let process = spawn(launch).map_err(|e| e.to_string())?;
        let guard = GroupGuard::new(process.pid);
        let keyboard = process.keyboard().map_err(|e| e.to_string())?;
        let control = process.control();
        let state = Arc::new(Mutex::new(State {
            parser: vt100::Parser::new(nonzero(rows), nonzero(cols), scrollback),
            last_activity: Instant::now(),
            exit: None,
            listener: None,
        }));
        let changed = Arc::new(Notify::new());
        let pid = process.pid;
        tokio::spawn(pump(process, Arc::clone(&state), Arc::clone(&changed)));
        Ok(Self {
            pid,
            command: command.to_string(),
            state,
            changed,
            keyboard: Mutex::new(keyboard),
            control,
            guard: Mutex::new(guard),
        })
    }

    /// Sends the program's output to `listener` from now on (replacing any earlier one). It first hears what
    /// redraws the screen as it is now (its text, colours, cursor and modes as escapes), which is also returned, so
    /// that a terminal that plays everything it hears shows what this one does.
    pub fn watch(&self, listener: Listener) -> Vec<u8> {
        let mut state = self.state();
        let screen = state.parser.screen().state_formatted().into_bytes();
        listener(Heard::Output(&screen));
        state.listener = Some(listener);
        screen
    }

    /// Stops sending the output to the listener.
    pub fn unwatch(&self) {
        self.state().listener = None;
    }

    /// Gives the terminal (and its screen) `rows` by `cols`.
    pub fn resize(&self, rows: u16, cols: u16) -> Result<(), String> {
        let (rows, cols) = (nonzero(rows).get(), nonzero(cols).get());
        self.control
            .resize(rows, cols)
            .map_err(|e| format!("cannot resize the terminal: {e}"))?;
        self.state()
            .parser
            .screen_mut()
            .set_size(nonzero(rows), nonzero(cols));
        self.changed.notify_waiters();
        Ok(())
    }

    /// The process group in the terminal's foreground when it is not the program's own (a command the shell
    /// runs); `None` while the program itself has the terminal, or where it cannot be told.
    pub fn foreground_job(&self) -> Option<u32> {
        self.control
            .foreground_group()
            .filter(|group| *group != self.pid)
    }

    /// The last `count` lines of the terminal's text: the lines that scrolled off the screen, then the screen's,
    /// without the empty rows below the last written one.
    pub fn last_lines(&self, count: usize) -> Vec<String> {
        let mut state = self.state();
        let screen = state.parser.screen_mut();
        let cols = screen.size().1.get();
        screen.set_scrollback(usize::MAX);
        let above = screen.scrollback();
        let mut lines = Vec::with_capacity(above + usize::from(screen.size().0.get()));
        // At offset `n` the screen's first row is the `n`-th line from the bottom of the scrollback.
        for offset in (1..=above).rev() {
            screen.set_scrollback(offset);
            lines.push(
                screen
                    .rows(0, cols)
                    .next()
                    .map(|r| r.trim_end().to_string())
                    .unwrap_or_default(),
            );
        }
        screen.set_scrollback(0);
        lines.extend(screen.rows(0, cols).map(|r| r.trim_end().to_string()));
        let used = lines
            .iter()
            .rposition(|r| !r.is_empty())
            .map_or(0, |i| i + 1);
        lines.truncate(used);
        let skip = lines.len().saturating_sub(count);
        lines.split_off(skip)
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Whether the program asked for the arrow keys' application mode.
    pub fn application_cursor(&self) -> bool {
        self.state().parser.screen().application_cursor()
    }

    /// Types `bytes` into the terminal.
    pub fn type_bytes(&self, bytes: &[u8]) -> Result<(), String> {
        if let Some(exit) = &self.state().exit {
            return Err(format!("the program has exited ({})", describe_exit(exit)));
        }
        let mut keyboard = self.keyboard.lock().unwrap_or_else(|p| p.into_inner());
        keyboard
            .write_all(bytes)
            .and_then(|()| keyboard.flush())
            .map_err(|e| format!("cannot type into the terminal: {e}"))?;
        self.state().last_activity = Instant::now();
        Ok(())
    }

    /// The screen now.
    pub fn snapshot(&self) -> Snapshot {
        let state = self.state();
        let screen = state.parser.screen();
        let (rows, cols) = screen.size();
        let (row, col) = screen.cursor_position();
        Snapshot {
            rows: screen
                .rows(0, cols.get())
                .map(|r| r.trim_end().to_string())
                .collect(),
            // A cursor waiting to wrap past the last column is shown on it.
            cursor: (row + 1, (col + 1).min(cols.get())),
            size: (rows.get(), cols.get()),
            alternate: screen.alternate_screen(),
            exit: state.exit.clone(),
        }
    }

    /// Waits until `pattern` shows on the screen (without one: until the output has been quiet for [`QUIET`]), the
    /// program exits, or `limit` passes. `None` when `cancel` fires first.
    pub async fn wait(
        &self,
        pattern: Option<&Regex>,
        limit: Duration,
        cancel: &CancellationToken,
    ) -> Option<Waited> {
        let deadline = Instant::now() + limit;
        loop {
            let notified = self.changed.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            let quiet_at = {
                let state = self.state();
                if pattern.is_some_and(|p| p.is_match(&state.parser.screen().contents())) {
                    return Some(Waited::Matched);
                }
                if state.exit.is_some() {
                    return Some(Waited::Exited);
                }
                let quiet_at = state.last_activity + QUIET;
                if pattern.is_none() && Instant::now() >= quiet_at {
                    return Some(Waited::Quiet);
                }
                quiet_at
            };
            if Instant::now() >= deadline {
                return Some(Waited::TimedOut);
            }
            let wake = if pattern.is_none() {
                quiet_at.min(deadline)
            } else {
                deadline
            };
            tokio::select! {
                () = cancel.cancelled() => return None,
                () = &mut notified => {}
                () = tokio::time::sleep_until(wake) => {}
            }
        }
    }

    /// Kills the program's process group and waits (up to `limit`) until it has exited; its exit, `None` when it
    /// was not seen in time.
    pub async fn kill(&self, limit: Duration) -> Option<Exit> {
        self.guard.lock().unwrap_or_else(|p| p.into_inner()).kill();
        let deadline = Instant::now() + limit;
        loop {
            let notified = self.changed.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if let Some(exit) = &self.state().exit {
                return Some(exit.clone());
            }
            tokio::select! {
                () = &mut notified => {}
                () = tokio::time::sleep_until(deadline) => return None,
            }
        }
    }
}

/// Reads the program's output into the screen until the terminal closes, and records how it exited.
async fn pump(mut process: PtyProcess, state: Arc<Mutex<State>>, changed: Arc<Notify>) {
    let mut exited = false;
    loop {
        tokio::select! {
            chunk = process.chunks.recv() => match chunk {
                Some(bytes) => lock(&state).feed(&bytes),
                None => break,
            },
            exit = &mut process.exit, if !exited => {
                exited = true;
                // Output already written is read before the exit shows.
                while let Ok(bytes) = process.chunks.try_recv() {
                    lock(&state).feed(&bytes);
                }
                lock(&state).exited(exit.unwrap_or_else(|_| Exit::Unknown("lost".into())));
            }
        }
        changed.notify_waiters();
    }
    if !exited {
        let exit = (&mut process.exit)
            .await
            .unwrap_or_else(|_| Exit::Unknown("lost".into()));
        lock(&state).exited(exit);
    }
    changed.notify_waiters();
}

/// The state, marked as changed now.
fn lock(state: &Mutex<State>) -> MutexGuard<'_, State> {
    let mut guard = state.lock().unwrap_or_else(|p| p.into_inner());
    guard.last_activity = Instant::now();
    guard
}

/// How a program ended, in words.
pub fn describe_exit(exit: &Exit) -> String {
    match exit {
        Exit::Code(code) => format!("exit code {code}"),
        Exit::Signal(signal) => format!("ended by signal {signal}"),
        Exit::Unknown(why) => format!("status unknown: {why}"),
    }
}

fn nonzero(n: u16) -> std::num::NonZeroU16 {
    std::num::NonZeroU16::new(n).unwrap_or(std::num::NonZeroU16::MIN)
}

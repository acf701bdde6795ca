//! Starting a program in a real pseudo-terminal (portable-pty): its output arrives as raw byte chunks on a
//! channel (read by a thread of its own), its exit status on a oneshot, and its pid leads its process group. Shared
//! with the Tungsten tool and the window's terminal panel, which size the terminal, resize it and type into it.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use portable_pty::{CommandBuilder, MasterPty, PtySize, native_pty_system};
use tokio::sync::{mpsc, oneshot};

use super::error::BashError;

/// Columns of the terminal the command sees.
pub const COLUMNS: u16 = 120;
/// Rows of the terminal the command sees.
pub const ROWS: u16 = 40;

/// How a program ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Exit {
    /// It exited with this code.
    Code(u32),
    /// A signal ended it (the signal's name).
    Signal(String),
    /// Its status could not be read.
    Unknown(String),
}

impl Exit {
    /// Whether it exited with code 0.
    pub fn success(&self) -> bool {
        matches!(self, Exit::Code(0))
    }
}

/// What to start.
#[derive(Debug, Clone, Default)]
pub struct Launch {
    pub program: String,
    pub args: Vec<String>,
    pub cwd: PathBuf,
    /// Variables set on top of the inherited environment.
    pub env: Vec<(String, String)>,
    /// The terminal's rows and columns (`None`: [`ROWS`] by [`COLUMNS`]).
    pub size: Option<(u16, u16)>,
}

/// A program running in a PTY.
pub struct PtyProcess {
    /// The program's pid, which is also its process group id.
    pub pid: u32,
    /// Raw output; closed once every holder of the terminal has closed it.
    pub chunks: mpsc::UnboundedReceiver<Vec<u8>>,
    /// Fires once when the program exits.
    pub exit: oneshot::Receiver<Exit>,
    /// Kept open while the program runs: closing it would hang up the terminal.
    master: PtyControl,
}

impl PtyProcess {
    /// What types into the terminal, as a person at its keyboard would (once per process: a second call fails).
    pub fn keyboard(&self) -> Result<Box<dyn Write + Send>, BashError> {
        self.master
            .master()
            .take_writer()
            .map_err(|e| BashError::Pty(e.to_string()))
    }

    /// What resizes the terminal and tells which program has it; the terminal stays open while a copy is held.
    pub fn control(&self) -> PtyControl {
        self.master.clone()
    }
}

/// The terminal's controlling side, shared: resizing it and asking which process group has it.
#[derive(Clone)]
pub struct PtyControl(Arc<Mutex<Box<dyn MasterPty + Send>>>);

impl std::fmt::Debug for PtyControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PtyControl")
    }
}

impl PtyControl {
    fn master(&self) -> std::sync::MutexGuard<'_, Box<dyn MasterPty + Send>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Gives the terminal `rows` by `cols` (the program hears SIGWINCH).
    pub fn resize(&self, rows: u16, cols: u16) -> Result<(), BashError> {
        self.master()
            .resize(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .map_err(|e| BashError::Pty(e.to_string()))
    }

    /// The process group in the terminal's foreground (the shell's own while it waits at its prompt); `None`
    /// where it cannot be told.
    pub fn foreground_group(&self) -> Option<u32> {
        self.master()
            .process_group_leader()
            .and_then(|pid| u32::try_from(pid).ok())
    }
}

impl std::fmt::Debug for PtyProcess {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PtyProcess")
            .field("pid", &self.pid)
            .finish()
    }
}

/// Starts `launch` in a new PTY with `TERM=xterm-256color`.
pub fn spawn(launch: &Launch) -> Result<PtyProcess, BashError> {
    let (rows, cols) = launch.size.unwrap_or((ROWS, COLUMNS));
    let pair = native_pty_system()
        .openpty(PtySize {
            rows,
            cols,
            pixel_width: 0,
            pixel_height: 0,
        })
        .map_err(|e| BashError::Pty(e.to_string()))?;
    let mut cmd = CommandBuilder::new(&launch.program);
    cmd.args(&launch.args);
    cmd.cwd(&launch.cwd);
    cmd.env("TERM", "xterm-256color");
    for (key, value) in &launch.env {
        cmd.env(key, value);
    }
    let mut child = pair
        .slave
        .spawn_command(cmd)
        .map_err(|e| BashError::Spawn(e.to_string()))?;
    // Only the child may hold the terminal's slave side, so that the reader sees the end when the child is done.
    drop(pair.slave);
    let pid = child
        .process_id()
        .ok_or_else(|| BashError::Spawn("the shell has no process id".into()))?;
    let mut reader = pair
        .master
        .try_clone_reader()
        .map_err(|e| BashError::Pty(e.to_string()))?;

    let (chunk_tx, chunks) = mpsc::unbounded_channel();
    std::thread::spawn(move || {
        let mut buf = [0u8; 8192];
        loop {
            match reader.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    if chunk_tx.send(buf[..n].to_vec()).is_err() {
                        break;
                    }
                }
            }
        }
    });
    let (exit_tx, exit) = oneshot::channel();
    std::thread::spawn(move || {
        let status = match child.wait() {
            Ok(status) => match status.signal() {
                Some(signal) => Exit::Signal(signal.to_string()),
                None => Exit::Code(status.exit_code()),
            },
            Err(e) => Exit::Unknown(e.to_string()),
        };
        let _ = exit_tx.send(status);
    });
    Ok(PtyProcess {
        pid,
        chunks,
        exit,
        master: PtyControl(Arc::new(Mutex::new(pair.master))),
    })
}

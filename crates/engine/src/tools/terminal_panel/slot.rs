//! The session's place for its terminal panel: whether its host can show one (the window can, a command-line run
//! cannot), and the panel open now. The window opens, types into, resizes and closes it through here; the
//! TerminalCapture tool reads it.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

use super::panel::TerminalPanel;
use crate::tools::tungsten::terminal::Listener;

/// Where the session runs, as far as a terminal panel goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PanelHost {
    /// The window, which can show a panel.
    Window,
    /// A command-line run (`tandem -p`, an editor): there is no panel.
    CommandLine,
    /// The `TERMINAL_PANEL` switch is off: no panel is offered.
    Off,
}

/// Why the panel could not do what was asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PanelError {
    #[error("the terminal panel is switched off: set TERMINAL_PANEL=1 to offer it")]
    SwitchedOff,
    #[error("there is no terminal panel in a command-line run: only the window has one")]
    NoPanelHere,
    #[error("the person has not opened a terminal in the window's terminal panel")]
    NotOpen,
    #[error("{0}")]
    Failed(String),
}

/// The panel as it was opened: what redraws its screen now, and its shell.
#[derive(Debug, Clone)]
pub struct PanelOpened {
    /// Escapes that draw the screen as it is now (the listener heard them first).
    pub screen: Vec<u8>,
    pub shell: String,
    pub pid: u32,
    /// Whether a new shell was started (else the running one was attached again).
    pub started: bool,
}

/// The session's terminal panel, if one is open.
#[derive(Debug)]
pub struct PanelSlot {
    host: PanelHost,
    cwd: PathBuf,
    panel: Mutex<Option<Arc<TerminalPanel>>>,
}

impl PanelSlot {
    /// The slot of a session in `cwd` run by `host`, with no panel open.
    pub fn new(host: PanelHost, cwd: &Path) -> Self {
        Self {
            host,
            cwd: cwd.to_path_buf(),
            panel: Mutex::new(None),
        }
    }

    pub fn host(&self) -> PanelHost {
        self.host
    }

    fn lock(&self) -> MutexGuard<'_, Option<Arc<TerminalPanel>>> {
        self.panel.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Opens the panel at `rows` by `cols` with its output going to `listener` (which first hears what redraws the
    /// screen as it is now): a shell that still runs is attached again (and resized), else the person's shell (`$SHELL`, else bash) starts in the session's folder. Must be
    /// called on an async runtime. A command-line run has no panel ([`PanelError::NoPanelHere`]).
    pub fn open(
        &self,
        rows: u16,
        cols: u16,
        listener: Listener,
    ) -> Result<PanelOpened, PanelError> {
        self.open_with(std::env::var("SHELL").ok(), rows, cols, listener)
    }

    /// As [`PanelSlot::open`], starting the program `shell` (else bash) when a shell must be started.
    pub fn open_with(
        &self,
        shell: Option<String>,
        rows: u16,
        cols: u16,
        listener: Listener,
    ) -> Result<PanelOpened, PanelError> {
        match self.host {
            PanelHost::Window => {}
            PanelHost::CommandLine => return Err(PanelError::NoPanelHere),
            PanelHost::Off => return Err(PanelError::SwitchedOff),
        }
        let mut slot = self.lock();
        if let Some(panel) = slot.as_ref().filter(|p| p.exit().is_none()) {
            panel.resize(rows, cols).map_err(PanelError::Failed)?;
            return Ok(PanelOpened {
                screen: panel.watch(listener),
                shell: panel.shell.clone(),
                pid: panel.pid(),
                started: false,
            });
        }
        let panel = Arc::new(
            TerminalPanel::start(shell, &self.cwd, rows, cols).map_err(PanelError::Failed)?,
        );
        let opened = PanelOpened {
            screen: panel.watch(listener),
            shell: panel.shell.clone(),
            pid: panel.pid(),
            started: true,
        };
        *slot = Some(panel);
        Ok(opened)
    }

    /// The panel open now (its shell may have exited).
    pub fn current(&self) -> Result<Arc<TerminalPanel>, PanelError> {
        match self.host {
            PanelHost::CommandLine => Err(PanelError::NoPanelHere),
            PanelHost::Off => Err(PanelError::SwitchedOff),
            PanelHost::Window => self.lock().clone().ok_or(PanelError::NotOpen),
        }
    }

    /// Types `bytes` into the panel's shell.
    pub fn type_bytes(&self, bytes: &[u8]) -> Result<(), PanelError> {
        self.current()?
            .type_bytes(bytes)
            .map_err(PanelError::Failed)
    }

    /// Gives the panel `rows` by `cols`.
    pub fn resize(&self, rows: u16, cols: u16) -> Result<(), PanelError> {
        self.current()?
            .resize(rows, cols)
            .map_err(PanelError::Failed)
    }

    /// Stops sending the panel's output to the window (the shell goes on).
    pub fn detach(&self) {
        if let Some(panel) = self.lock().as_ref() {
            panel.unwatch();
        }
    }

    /// Closes the panel: its shell and every job it started are killed. Returns whether one was open.
    pub fn close(&self) -> bool {
        let panel = self.lock().take();
        panel.is_some()
    }
}

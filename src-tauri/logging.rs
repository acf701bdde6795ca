//! The desktop app's log: a file in the app's data directory (`~/.local/share/tandem/logs/tandem.log` on Linux) at
//! the level `TANDEM_LOG` names (an `EnvFilter` directive; `info` by default). The file is capped: when the next
//! line would take it past [`LOG_CAP_BYTES`] it becomes `tandem.log.1` (replacing the previous one) and a new file
//! starts, so the log never takes more than about twice the cap. Each command's span logs one line when it closes
//! (with its time), so the file reads as a record of what the window asked for.

use std::fs::{File, OpenOptions};
use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use tracing_subscriber::EnvFilter;
use tracing_subscriber::fmt::MakeWriter;
use tracing_subscriber::fmt::format::FmtSpan;

/// The size at which the log file is moved aside.
pub const LOG_CAP_BYTES: u64 = 10 * 1024 * 1024;

/// The filter used when `TANDEM_LOG` is unset or invalid.
const DEFAULT_FILTER: &str = "info";

/// The folder the app logs into: `logs/` in the app's data directory.
pub fn log_dir() -> Option<PathBuf> {
    dirs::data_dir().map(|d| d.join("tandem").join("logs"))
}

/// Installs the app's subscriber and returns the log file's path. When the file cannot be opened the log goes to
/// stderr instead (and `None` is returned), with a line saying why.
pub fn init() -> Option<PathBuf> {
    let filter =
        EnvFilter::try_from_env("TANDEM_LOG").unwrap_or_else(|_| EnvFilter::new(DEFAULT_FILTER));
    let opened = log_dir()
        .ok_or_else(|| "no data directory".to_string())
        .and_then(|dir| {
            std::fs::create_dir_all(&dir)
                .map_err(|e| format!("{}: {e}", dir.display()))
                .map(|()| dir.join("tandem.log"))
        })
        .and_then(|path| {
            CappedLog::open(&path, LOG_CAP_BYTES)
                .map(|log| (path.clone(), log))
                .map_err(|e| format!("{}: {e}", path.display()))
        });
    match opened {
        Ok((path, log)) => {
            let _ = tracing_subscriber::fmt()
                .with_env_filter(filter)
                .with_ansi(false)
                .with_span_events(FmtSpan::CLOSE)
                .with_writer(log)
                .try_init();
            Some(path)
        }
        Err(problem) => {
            let _ = tracing_subscriber::fmt()
                .with_env_filter(filter)
                .with_ansi(io::stderr().is_terminal())
                .with_span_events(FmtSpan::CLOSE)
                .with_writer(io::stderr)
                .try_init();
            tracing::warn!("the log file cannot be written ({problem}); logging to stderr");
            None
        }
    }
}

/// An append-only log file that is moved aside to `<name>.1` when it would grow past its cap. One write is one
/// formatted event, so a rotation never splits a line.
#[derive(Debug)]
pub struct CappedLog {
    state: Mutex<State>,
}

#[derive(Debug)]
struct State {
    path: PathBuf,
    file: File,
    len: u64,
    cap: u64,
}

impl CappedLog {
    /// Opens (creating it when needed) the log at `path`, appending to what it holds.
    pub fn open(path: &Path, cap: u64) -> io::Result<Self> {
        let file = append(path)?;
        let len = file.metadata()?.len();
        Ok(Self {
            state: Mutex::new(State {
                path: path.to_path_buf(),
                file,
                len,
                cap,
            }),
        })
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while writing a log line leaves nothing half-updated that matters: keep logging.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn append(path: &Path) -> io::Result<File> {
    OpenOptions::new().create(true).append(true).open(path)
}

impl State {
    /// Moves the file aside to `<name>.1` and starts a new one; when it cannot be moved, empties it instead.
    fn rotate(&mut self) -> io::Result<()> {
        let mut aside = self.path.clone().into_os_string();
        aside.push(".1");
        match std::fs::rename(&self.path, &aside) {
            Ok(()) => self.file = append(&self.path)?,
            Err(_) => self.file.set_len(0)?,
        }
        self.len = 0;
        Ok(())
    }

    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.len > 0 && self.len + buf.len() as u64 > self.cap {
            self.rotate()?;
        }
        self.file.write_all(buf)?;
        self.len += buf.len() as u64;
        Ok(buf.len())
    }
}

/// A handle writing one event to a [`CappedLog`].
#[derive(Debug)]
pub struct CappedWriter<'a>(&'a CappedLog);

impl Write for CappedWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.lock().write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.lock().file.flush()
    }
}

impl<'a> MakeWriter<'a> for CappedLog {
    type Writer = CappedWriter<'a>;

    fn make_writer(&'a self) -> Self::Writer {
        CappedWriter(self)
    }
}

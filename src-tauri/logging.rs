//! The desktop app's log: a file in the app's data directory (`~/.local/share/tandem/logs/tandem.log` on Linux) at
//! the level `TANDEM_LOG` names (an `EnvFilter` directive; `info` by default). `tracing-subscriber` formats each
//! event as one line without colour codes, each command's span logging one line when it closes (with its time);
//! `tauri-plugin-log` writes the lines and caps the file: past [`LOG_CAP_BYTES`] it is moved aside (one earlier
//! file is kept, named with the date) and a new one starts. The plugin's logger exists only once the app is set up,
//! so the lines logged before wait in memory (at most [`EARLY_BYTES`]) and go first.

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use tauri::plugin::TauriPlugin;
use tauri::{AppHandle, Runtime};
use tauri_plugin_log::{RotationStrategy, Target, TargetKind};
use tracing_subscriber::EnvFilter;
use tracing_subscriber::fmt::format::FmtSpan;

/// The size at which the log file is moved aside.
pub const LOG_CAP_BYTES: u64 = 10 * 1024 * 1024;

/// The most bytes of lines kept while the logger does not exist yet; later ones are dropped.
pub const EARLY_BYTES: usize = 64 * 1024;

/// The filter used when `TANDEM_LOG` is unset or invalid.
const DEFAULT_FILTER: &str = "info";

/// The log file's name, without its `.log`.
const LOG_NAME: &str = "tandem";

/// Where this process's lines go.
static SINK: LogSink = LogSink::new();

/// The log file [`init`] chose for this process.
static PATH: OnceLock<PathBuf> = OnceLock::new();

/// The folder the app logs into: `logs/` in the app's data directory.
pub fn log_dir() -> Option<PathBuf> {
    dirs::data_dir().map(|d| d.join("tandem").join("logs"))
}

/// Installs the app's subscriber and returns the log file's path; [`start`] opens it once the app is set up. When
/// the log folder cannot be made the log goes to stderr instead (and `None` is returned), with a line saying why.
pub fn init() -> Option<PathBuf> {
    let filter =
        EnvFilter::try_from_env("TANDEM_LOG").unwrap_or_else(|_| EnvFilter::new(DEFAULT_FILTER));
    let folder = log_dir()
        .ok_or_else(|| "no data directory".to_string())
        .and_then(|dir| {
            std::fs::create_dir_all(&dir)
                .map_err(|e| format!("{}: {e}", dir.display()))
                .map(|()| dir)
        });
    match folder {
        Ok(dir) => {
            let _ = tracing_subscriber::fmt()
                .with_env_filter(filter)
                .with_ansi(false)
                .with_span_events(FmtSpan::CLOSE)
                .with_writer(|| &SINK)
                .try_init();
            let path = dir.join(format!("{LOG_NAME}.log"));
            let _ = PATH.set(path.clone());
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

/// Opens the log file [`init`] chose with the plugin, registers the plugin and hands it the lines: those kept since
/// [`init`] first. When the file cannot be opened the lines go to stderr, after one saying why. Does nothing in a
/// process that did not call [`init`] (tests).
pub fn start<R: Runtime>(app: &AppHandle<R>) {
    let Some(dir) = PATH.get().and_then(|p| p.parent()) else {
        return;
    };
    let (plugin, logger) = match file_logger(app, dir, LOG_CAP_BYTES) {
        Ok(opened) => opened,
        Err(e) => {
            let stderr = tauri_plugin_log::Builder::new()
                .clear_targets()
                .target(Target::new(TargetKind::Stderr))
                .clear_format()
                .split(app);
            let Ok((plugin, _, logger)) = stderr else {
                return;
            };
            SINK.line(&format!(
                "WARN the log file in {} cannot be written ({e}); logging to stderr",
                dir.display()
            ));
            (plugin, logger)
        }
    };
    if let Err(e) = app.plugin(plugin) {
        SINK.line(&format!("WARN the log plugin could not be registered: {e}"));
    }
    SINK.attach(logger);
}

/// The plugin and its logger for the file `<dir>/tandem.log`: appended to, moved aside past `cap` bytes with one
/// earlier file kept, each line written as it was formatted.
pub fn file_logger<R: Runtime>(
    app: &AppHandle<R>,
    dir: &Path,
    cap: u64,
) -> Result<(TauriPlugin<R>, Box<dyn log::Log>), tauri_plugin_log::Error> {
    let (plugin, _, logger) = tauri_plugin_log::Builder::new()
        .clear_targets()
        .target(Target::new(TargetKind::Folder {
            path: dir.to_path_buf(),
            file_name: Some(LOG_NAME.into()),
        }))
        .max_file_size(u128::from(cap))
        .rotation_strategy(RotationStrategy::KeepSome(1))
        .clear_format()
        .split(app)?;
    Ok((plugin, logger))
}

/// Where formatted lines go: the logger once one is attached, kept in memory until then.
pub struct LogSink {
    logger: OnceLock<Box<dyn log::Log>>,
    early: Mutex<(Vec<String>, usize)>,
}

impl LogSink {
    /// A sink with no logger yet.
    pub const fn new() -> Self {
        Self {
            logger: OnceLock::new(),
            early: Mutex::new((Vec::new(), 0)),
        }
    }

    /// Hands lines to `logger` from now on, the lines kept until now first. The first call wins.
    pub fn attach(&self, logger: Box<dyn log::Log>) {
        // Holding the lock while attaching: a line written meanwhile waits, so none passes those kept.
        let mut early = self.early.lock().unwrap_or_else(|e| e.into_inner());
        if self.logger.set(logger).is_err() {
            return;
        }
        for line in std::mem::take(&mut early.0) {
            self.send(&line);
        }
        early.1 = 0;
    }

    /// Passes one formatted line on (or keeps it, while there is no logger).
    pub fn line(&self, text: &str) {
        if self.logger.get().is_some() {
            self.send(text);
            return;
        }
        let mut early = self.early.lock().unwrap_or_else(|e| e.into_inner());
        if self.logger.get().is_some() {
            drop(early);
            self.send(text);
        } else if early.1 + text.len() <= EARLY_BYTES {
            early.1 += text.len();
            early.0.push(text.to_string());
        }
    }

    fn send(&self, text: &str) {
        if let Some(logger) = self.logger.get() {
            logger.log(
                &log::Record::builder()
                    .args(format_args!("{text}"))
                    .level(log::Level::Info)
                    .target(LOG_NAME)
                    .build(),
            );
            logger.flush();
        }
    }
}

impl Default for LogSink {
    fn default() -> Self {
        Self::new()
    }
}

/// One formatted event per write (as `tracing-subscriber` writes them).
impl Write for &LogSink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.line(String::from_utf8_lossy(buf).trim_end_matches('\n'));
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

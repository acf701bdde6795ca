//! Following a file as it grows (as `tail -f` does): the complete lines appended since the last look, woken by the
//! file system's change notices (its folder is watched, so that a file replaced or recreated is still followed), or
//! by looking again every [`POLL_EVERY`] where notices cannot be had.

use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::time::Duration;

use notify::{RecommendedWatcher, RecursiveMode, Watcher};
use tokio::sync::mpsc;

/// How often the file is looked at when the file system cannot notify.
pub const POLL_EVERY: Duration = Duration::from_millis(500);

/// The most bytes one look reads; the rest waits for the next look.
const MAX_READ: u64 = 4 * 1024 * 1024;

/// A file being followed.
pub struct Follower {
    path: PathBuf,
    /// Where the next read starts.
    offset: u64,
    /// The start of a line whose end has not been written yet.
    partial: Vec<u8>,
    /// Rings when the file may have changed; `None`: no notices, look every [`POLL_EVERY`].
    notices: Option<mpsc::UnboundedReceiver<()>>,
    /// Kept for as long as the file is followed.
    _watcher: Option<RecommendedWatcher>,
}

impl std::fmt::Debug for Follower {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Follower")
            .field("path", &self.path)
            .field("offset", &self.offset)
            .field("notified", &self.notices.is_some())
            .finish()
    }
}

impl Follower {
    /// Follows `path` (which must exist) from its start (`from_start`) or from its end now.
    pub fn open(path: &Path, from_start: bool) -> std::io::Result<Self> {
        let path = path.canonicalize()?;
        let len = std::fs::metadata(&path)?.len();
        let (watcher, notices) = match watch(&path) {
            Ok((watcher, rx)) => (Some(watcher), Some(rx)),
            Err(e) => {
                tracing::debug!("{}: no change notices ({e}); polling", path.display());
                (None, None)
            }
        };
        Ok(Self {
            path,
            offset: if from_start { 0 } else { len },
            partial: Vec::new(),
            notices,
            _watcher: watcher,
        })
    }

    /// Waits until the file may have changed (a notice, or the polling interval).
    pub async fn changed(&mut self) {
        match &mut self.notices {
            Some(rx) => {
                if rx.recv().await.is_none() {
                    // The watcher is gone: look again later all the same.
                    self.notices = None;
                    tokio::time::sleep(POLL_EVERY).await;
                }
                // Several notices for one write come together: take them all.
                if let Some(rx) = &mut self.notices {
                    while rx.try_recv().is_ok() {}
                }
            }
            None => tokio::time::sleep(POLL_EVERY).await,
        }
    }

    /// The complete lines written since the last call, without their line ends. A file that shrank (truncated or
    /// replaced) is read again from its start. A missing file has no new lines.
    pub fn new_lines(&mut self) -> std::io::Result<Vec<Vec<u8>>> {
        let mut file = match std::fs::File::open(&self.path) {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => return Err(e),
        };
        let len = file.metadata()?.len();
        if len < self.offset {
            self.offset = 0;
            self.partial.clear();
        }
        file.seek(SeekFrom::Start(self.offset))?;
        let mut bytes = Vec::new();
        file.take(MAX_READ).read_to_end(&mut bytes)?;
        self.offset += bytes.len() as u64;
        self.partial.extend_from_slice(&bytes);
        let Some(last_end) = self.partial.iter().rposition(|b| *b == b'\n') else {
            return Ok(Vec::new());
        };
        let rest = self.partial.split_off(last_end + 1);
        let complete = std::mem::replace(&mut self.partial, rest);
        Ok(complete[..last_end]
            .split(|b| *b == b'\n')
            .map(<[u8]>::to_vec)
            .collect())
    }

    /// The last line, written without its line end (when the writer is done), if there is one.
    pub fn unfinished(&mut self) -> Option<Vec<u8>> {
        (!self.partial.is_empty()).then(|| std::mem::take(&mut self.partial))
    }
}

/// Watches the folder holding `path`, ringing for each notice about `path`.
fn watch(path: &Path) -> notify::Result<(RecommendedWatcher, mpsc::UnboundedReceiver<()>)> {
    let folder = path
        .parent()
        .ok_or_else(|| notify::Error::generic("the file has no folder"))?
        .to_path_buf();
    let (tx, rx) = mpsc::unbounded_channel();
    let target = path.to_path_buf();
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        let Ok(event) = event else {
            return;
        };
        if matches!(event.kind, notify::EventKind::Access(_)) {
            return;
        }
        if event.paths.contains(&target) {
            let _ = tx.send(());
        }
    })?;
    watcher.watch(&folder, RecursiveMode::NonRecursive)?;
    Ok((watcher, rx))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn lines_are_handed_out_once_complete_and_a_shrunk_file_is_read_again() {
        let dir = tempfile::tempdir().expect("test value");
        let path = dir.path().join("log.txt");
        std::fs::write(&path, "old line\n").expect("test value");
        let mut follower = Follower::open(&path, false).expect("test value");
        assert!(follower.new_lines().expect("test value").is_empty());
        let mut file = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .expect("test value");
        file.write_all(b"one\ntw").expect("test value");
        assert_eq!(follower.new_lines().expect("test value"), [b"one".to_vec()]);
        file.write_all(b"o\nthree").expect("test value");
        assert_eq!(follower.new_lines().expect("test value"), [b"two".to_vec()]);
        assert_eq!(follower.unfinished(), Some(b"three".to_vec()));
        std::fs::write(&path, "fresh\n").expect("test value");
        assert_eq!(
            follower.new_lines().expect("test value"),
            [b"fresh".to_vec()]
        );
        let mut from_start = Follower::open(&path, true).expect("test value");
        assert_eq!(
            from_start.new_lines().expect("test value"),
            [b"fresh".to_vec()]
        );
    }
}

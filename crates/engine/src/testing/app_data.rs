//! A data folder of the test process's own (`<temp>/tandem-test-data-<pid>`), so that sessions, checkpoints and the
//! answer files tests make never reach the person's own data folder; folders of test processes that are gone are
//! removed when the next one starts.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

const PREFIX: &str = "tandem-test-data-";

/// Moves the app's data folder of this process to a temporary folder of its own (once) and returns it. The test
/// helpers ([`super::Workspace`], [`super::Project`], [`super::FakeServer`]) call it.
pub fn isolate_app_data() -> PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let root = std::env::temp_dir();
        remove_gone(&root);
        let dir = root.join(format!("{PREFIX}{}", std::process::id()));
        if let Err(e) = std::fs::create_dir_all(&dir) {
            tracing::warn!("test data folder {}: {e}", dir.display());
        }
        crate::fsutil::move_app_data(dir)
    })
    .clone()
}

/// Removes the data folders of test processes that no longer run.
fn remove_gone(root: &Path) {
    if !Path::new("/proc/self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(root) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(PREFIX))
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

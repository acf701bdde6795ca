//! The app's data folder (`<data dir>/tandem`, e.g. `~/.local/share/tandem`): the session database, checkpoints,
//! worktrees, the trust and MCP answer files. A test suite may move it to a folder of its own for its whole process,
//! so that tests leave the person's own data alone.

use std::path::PathBuf;
use std::sync::OnceLock;

static MOVED: OnceLock<PathBuf> = OnceLock::new();

/// The app's data folder: the one set with [`move_app_data`], else `<data dir>/tandem`; `None` when the platform has
/// no data folder.
pub fn app_data_dir() -> Option<PathBuf> {
    MOVED
        .get()
        .cloned()
        .or_else(|| dirs::data_dir().map(|d| d.join("tandem")))
}

/// [`app_data_dir`], or a `tandem` folder in the system's temporary folder when the platform has no data folder.
pub fn app_data_dir_or_temp() -> PathBuf {
    app_data_dir().unwrap_or_else(|| std::env::temp_dir().join("tandem"))
}

/// Moves the app's data folder to `dir` for the rest of this process (tests). Only the first call moves it; returns
/// the folder in force.
pub fn move_app_data(dir: PathBuf) -> PathBuf {
    MOVED.get_or_init(|| dir).clone()
}

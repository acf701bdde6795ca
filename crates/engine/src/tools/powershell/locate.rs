//! Finding `pwsh`: the first executable file of that name on `PATH`.

use std::path::{Path, PathBuf};

/// The `pwsh` the PowerShell tool runs, from the directories of `path` (a `PATH` value), or `None` when none of
/// them holds one.
pub fn find_pwsh(path: Option<&std::ffi::OsStr>) -> Option<PathBuf> {
    std::env::split_paths(path?)
        .map(|dir| dir.join("pwsh"))
        .find(|candidate| is_executable(candidate))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

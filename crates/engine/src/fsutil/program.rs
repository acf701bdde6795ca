//! Finding a program on the `PATH`: the first executable regular file of that name in its folders.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// Where the program `name` is among the folders of `path` (a `PATH` value), if any of them holds an executable
/// file of that name.
pub fn find_program(name: &str, path: Option<&OsStr>) -> Option<PathBuf> {
    std::env::split_paths(path?)
        .map(|dir| dir.join(name))
        .find(|candidate| is_executable(candidate))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

//! Path checks the file tools make before touching the disk: absolute and normalised paths, UNC paths (never
//! touched, so that no credentials leak to a remote host), device files, and the display form relative to cwd.

use std::path::{Component, Path, PathBuf};

use crate::tool::ToolContext;

/// Whether `raw` names a UNC path (`\\host\share`, and `//host/share` on Windows). Such paths are never touched
/// on disk: merely opening one can send the user's credentials to the host.
pub fn is_unc(raw: &str) -> bool {
    raw.starts_with("\\\\") || (cfg!(windows) && raw.starts_with("//"))
}

/// Removes `.` and `..` components lexically (symlinks are not resolved).
pub fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// The absolute, normalised path for a path the model gave; this is the key of the session's read state.
pub fn absolute(ctx: &ToolContext, raw: &str) -> PathBuf {
    normalise(&ctx.resolve(raw))
}

/// Paths whose reading would block or never end (`/dev/zero`, a terminal, stdin...).
pub fn is_device_path(path: &Path) -> bool {
    let s = path.to_string_lossy();
    s.starts_with("/dev/") || (s.starts_with("/proc/") && s.contains("/fd/"))
}

/// `path` relative to the working directory when it lies inside it, else as given.
pub fn display(ctx: &ToolContext, path: &Path) -> String {
    match path.strip_prefix(&ctx.cwd) {
        Ok(rel) if !rel.as_os_str().is_empty() => rel.display().to_string(),
        _ => path.display().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalises_and_spots_unc() {
        assert_eq!(normalise(Path::new("/a/./b/../c")), PathBuf::from("/a/c"));
        assert!(is_unc("\\\\host\\share\\x"));
        assert!(!is_unc("/etc/passwd"));
        assert!(is_device_path(Path::new("/dev/zero")));
    }
}

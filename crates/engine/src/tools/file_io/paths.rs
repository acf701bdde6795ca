//! Path checks the file tools make before touching the disk: absolute and normalised paths, UNC paths (never
//! touched, so that no credentials leak to a remote host), device files, and the display form relative to cwd.

use std::path::{Path, PathBuf};

pub use crate::fsutil::{is_unc, normalise};
use crate::tool::ToolContext;

/// The absolute, normalised path for a path the model gave; this is the key of the session's read state.
pub fn absolute(ctx: &ToolContext, raw: &str) -> PathBuf {
    normalise(&ctx.resolve(raw))
}

/// Paths whose reading would block or never end (`/dev/zero`, a terminal, stdin...).
pub fn is_device_path(path: &Path) -> bool {
    let s = path.to_string_lossy();
    s.starts_with("/dev/") || (s.starts_with("/proc/") && s.contains("/fd/"))
}

/// The absolute path a reading tool's input field `field` names (`raw`), or why it must not be read: empty, a UNC
/// (network) path, or a device.
pub fn readable(ctx: &ToolContext, field: &str, raw: &str) -> Result<PathBuf, String> {
    if raw.trim().is_empty() {
        return Err(format!("{field} is empty"));
    }
    if is_unc(raw) {
        return Err(format!(
            "{raw} is a UNC (network) path; Tandem does not open network paths."
        ));
    }
    let path = absolute(ctx, raw);
    if is_device_path(&path) {
        return Err(format!(
            "{} is a device; it cannot be read.",
            path.display()
        ));
    }
    Ok(path)
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
    fn device_paths_are_spotted() {
        assert!(is_device_path(Path::new("/dev/zero")));
        assert!(is_device_path(Path::new("/proc/self/fd/0")));
        assert!(!is_device_path(Path::new("/proc/cpuinfo")));
    }
}

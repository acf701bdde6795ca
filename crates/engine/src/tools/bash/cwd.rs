//! The shell's working directory between calls: where the last command left it, kept only while it stays inside
//! the session's working directories.

use std::path::{Path, PathBuf};

/// Where the next command starts after a command reported `reported` as its final directory, and a note for the
/// model when the directory was reset. `reported` is `None` when the command did not say (it `exec`ed another
/// program, or was killed): the previous directory stays.
pub fn settle(
    reported: Option<PathBuf>,
    previous: &Path,
    working_dirs: &[PathBuf],
    root: &Path,
) -> (PathBuf, Option<String>) {
    let Some(reported) = reported else {
        return (previous.to_path_buf(), None);
    };
    if inside(&reported, working_dirs) {
        (reported, None)
    } else {
        let note = format!(
            "Shell cwd was reset to {}: {} is outside the project's working directories.",
            root.display(),
            reported.display()
        );
        (root.to_path_buf(), Some(note))
    }
}

/// Whether `path` is one of `dirs` or inside one (comparing canonical paths where they exist).
pub fn inside(path: &Path, dirs: &[PathBuf]) -> bool {
    let path = canonical(path);
    dirs.iter().any(|d| path.starts_with(canonical(d)))
}

fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Reads the directory a command wrote to its side file (`None` when it wrote nothing).
pub fn read_reported(file: &Path) -> Option<PathBuf> {
    let text = std::fs::read_to_string(file).ok()?;
    let line = text.trim_end_matches('\n');
    (!line.is_empty()).then(|| PathBuf::from(line))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_directory_outside_resets_to_the_root() {
        let root = PathBuf::from("/project");
        let dirs = vec![root.clone()];
        let (cwd, note) = settle(Some(PathBuf::from("/project/src")), &root, &dirs, &root);
        assert_eq!(cwd, PathBuf::from("/project/src"));
        assert!(note.is_none());
        let (cwd, note) = settle(Some(PathBuf::from("/etc")), &cwd, &dirs, &root);
        assert_eq!(cwd, root);
        assert!(note.is_some_and(|n| n.contains("reset")));
    }
}

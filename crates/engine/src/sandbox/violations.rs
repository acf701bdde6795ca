//! What the sandbox refused a command, found after it ran: writes refused with "Read-only file system" (or
//! "Permission denied" for a creation) naming a path outside the writable folders, from the command's output; and
//! the hosts the proxy refused. Reported on the result for the model and as events for the window.

use std::path::{Path, PathBuf};

use tandem_protocol::SandboxViolation;

/// How many refused writes one command reports at most.
const MAX_WRITES: usize = 20;

/// The paths of refused writes named in `output` that lie outside `writable` (relative paths resolve against
/// `cwd`), each once.
pub fn refused_writes(output: &str, cwd: &Path, writable: &[PathBuf]) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = Vec::new();
    for line in output.lines() {
        let Some(path) = refused_path(line) else {
            continue;
        };
        let path = if Path::new(&path).is_absolute() {
            PathBuf::from(path)
        } else {
            cwd.join(path)
        };
        let path = crate::fsutil::normalise(&path);
        if writable.iter().any(|w| path.starts_with(w)) || path.starts_with("/tmp") {
            continue;
        }
        if !found.contains(&path) {
            found.push(path);
        }
        if found.len() >= MAX_WRITES {
            break;
        }
    }
    found
}

/// The path a line of error output says could not be written, if it says so.
fn refused_path(line: &str) -> Option<String> {
    let line = line.trim_end();
    let erofs = line.ends_with("Read-only file system");
    // Permission denied only counts where something was being created, moved or removed.
    let eacces = line.ends_with("Permission denied")
        && [
            "cannot create",
            "cannot touch",
            "cannot remove",
            "cannot move",
            "cannot open",
            "cannot make",
        ]
        .iter()
        .any(|verb| line.contains(verb));
    if !erofs && !eacces {
        return None;
    }
    // `touch: cannot touch '/usr/x': Read-only file system` (quotes straight or typographic).
    for (open, close) in [('\'', '\''), ('‘', '’'), ('"', '"')] {
        if let Some(start) = line.find(open) {
            let rest = &line[start + open.len_utf8()..];
            if let Some(end) = rest.find(close) {
                return Some(rest[..end].to_string());
            }
        }
    }
    // `bash: /usr/x: Read-only file system`, `bash: line 1: /usr/x: Read-only file system`.
    let head = line.rsplit_once(": ")?.0;
    let path = head.rsplit(": ").next()?;
    path.starts_with('/').then(|| path.to_string())
}

/// The violations of one command: refused writes, then refused hosts.
pub fn collect(writes: Vec<PathBuf>, hosts: Vec<String>) -> Vec<SandboxViolation> {
    writes
        .into_iter()
        .map(|p| SandboxViolation::Write {
            path: p.display().to_string(),
        })
        .chain(
            hosts
                .into_iter()
                .map(|host| SandboxViolation::Network { host }),
        )
        .collect()
}

/// The note appended to the result for the model.
pub fn note(violations: &[SandboxViolation]) -> String {
    let lines: Vec<String> = violations
        .iter()
        .map(|v| format!("- {}", v.describe()))
        .collect();
    format!(
        "The sandbox refused:\n{}\nThe user can allow these; do not try to get around the sandbox.",
        lines.join("\n")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refused_paths_from_error_lines() {
        for (line, want) in [
            (
                "touch: cannot touch '/usr/x': Read-only file system",
                Some("/usr/x"),
            ),
            (
                "mkdir: cannot create directory ‘/opt/d’: Read-only file system",
                Some("/opt/d"),
            ),
            (
                "bash: /etc/passwd: Read-only file system",
                Some("/etc/passwd"),
            ),
            (
                "bash: line 1: /usr/y: Read-only file system",
                Some("/usr/y"),
            ),
            (
                "rm: cannot remove '/usr/z': Permission denied",
                Some("/usr/z"),
            ),
            ("cat: /root/secret: Permission denied", None),
            (
                "cp: cannot create regular file 'rel/f': Read-only file system",
                Some("rel/f"),
            ),
            ("all fine", None),
            ("error: Read-only file system", None),
        ] {
            assert_eq!(refused_path(line).as_deref(), want, "{line}");
        }
    }

    #[test]
    fn writes_inside_the_writable_folders_are_not_violations() {
        let out = "touch: cannot touch '/work/p/a': Read-only file system\n\
                   touch: cannot touch '/usr/b': Read-only file system\n\
                   touch: cannot touch '/usr/b': Read-only file system\n\
                   touch: cannot touch 'c': Read-only file system";
        let got = refused_writes(out, Path::new("/srv"), &[PathBuf::from("/work/p")]);
        assert_eq!(got, vec![PathBuf::from("/usr/b"), PathBuf::from("/srv/c")]);
    }
}

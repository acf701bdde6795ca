//! Lexical path helpers shared by the permission engine and the file tools, so that both agree on what a path is:
//! normalising `.` and `..` without touching the disk, and spotting UNC (network) paths.

use std::path::{Component, Path, PathBuf};

/// Removes `.` components, duplicate separators and `..` lexically (symlinks are not resolved). `..` never climbs
/// above the root of an absolute path; a relative path keeps the `..` it cannot resolve (`a/../../b` → `../b`); a
/// relative path that resolves to nothing is `.`.
pub fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::ParentDir => match out.components().next_back() {
                Some(Component::Normal(_)) => {
                    out.pop();
                }
                Some(Component::RootDir | Component::Prefix(_)) => {}
                _ => out.push(".."),
            },
            Component::CurDir => {}
            other => out.push(other.as_os_str()),
        }
    }
    if out.as_os_str().is_empty() {
        out.push(".");
    }
    out
}

/// Whether `path` names a UNC path: `\\host\share`, such a path joined onto a directory (`/project/\\host\x`, which
/// is how a relative UNC path looks once resolved on Unix), and `//host/share` on Windows. Such paths are never
/// touched on disk before a decision: merely opening one can send the user's credentials to the host.
pub fn is_unc(path: impl AsRef<Path>) -> bool {
    let s = path.as_ref().to_string_lossy();
    s.starts_with("\\\\") || s.contains("/\\\\") || (cfg!(windows) && s.starts_with("//"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalise_is_lexical_and_stops_at_the_root() {
        for (input, want) in [
            ("/a/./b/../c", "/a/c"),
            ("/a//b/", "/a/b"),
            ("/..", "/"),
            ("/../../etc", "/etc"),
            ("/a/b/../../..", "/"),
            ("a/..", "."),
            ("", "."),
            (".", "."),
            ("a/../../b", "../b"),
            ("../x", "../x"),
            ("./a/./b", "a/b"),
        ] {
            assert_eq!(normalise(Path::new(input)), PathBuf::from(want), "{input}");
        }
    }

    #[test]
    fn unc_paths_are_spotted_raw_and_joined() {
        assert!(is_unc("\\\\host\\share\\x"));
        assert!(is_unc(Path::new("/project/\\\\host\\share")));
        assert!(!is_unc("/etc/passwd"));
        assert!(!is_unc("a\\b"));
        assert_eq!(is_unc("//host/share"), cfg!(windows));
    }
}

//! Lexical path helpers shared by the permission engine, the settings and the file tools, so that all agree on what
//! a path is: `~` for the home directory, normalising `.` and `..` without touching the disk, and spotting UNC
//! (network) paths.

use std::path::{Component, Path, PathBuf};

/// What follows the `~` when `text` names the home directory or a path under it: `""` for `~`, `a/b` for `~/a/b`;
/// `None` for any other text (`~user` and `a/~` are not the home directory).
pub fn under_home(text: &str) -> Option<&str> {
    if text == "~" {
        Some("")
    } else {
        text.strip_prefix("~/")
    }
}

/// `text` with a leading `~` expanded to `home` (see [`under_home`]), and a relative result resolved against `base`.
/// Without a home directory `~` is an ordinary name, resolved against `base` like any other.
pub fn resolve_path(text: &str, base: &Path, home: Option<&Path>) -> PathBuf {
    match (under_home(text), home) {
        (Some(""), Some(home)) => home.to_path_buf(),
        (Some(rest), Some(home)) => home.join(rest),
        _ => base.join(text),
    }
}

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
    fn home_is_expanded_and_the_rest_resolved_against_the_base() {
        let home = Some(Path::new("/home/u"));
        for (text, home, want) in [
            ("~", home, "/home/u"),
            ("~/a/b", home, "/home/u/a/b"),
            ("~user/a", home, "/p/~user/a"),
            ("a/~", home, "/p/a/~"),
            ("/abs", home, "/abs"),
            ("rel", home, "/p/rel"),
            ("~", None, "/p/~"),
            ("~/a", None, "/p/~/a"),
        ] {
            let got = resolve_path(text, Path::new("/p"), home);
            assert_eq!(got.to_string_lossy(), want, "{text} with {home:?}");
        }
        assert_eq!(under_home("~"), Some(""));
        assert_eq!(under_home("~/x"), Some("x"));
        assert_eq!(under_home("~x"), None);
    }

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

//! Keeping a person's own file out of their repository: the project's `.claude/settings.local.json` (rules saved with
//! "Yes, and don't ask again") is added to the repository's `.git/info/exclude` — the clone's own ignore list, which
//! is never committed — unless an ignore file already covers it. git itself is never run: a repository's config can
//! name commands (`core.fsmonitor`) that would run on this machine.

use std::io::Write;
use std::path::{Path, PathBuf};

use ignore::gitignore::{Gitignore, GitignoreBuilder};

/// Adds `file` to the ignore list of the git repository holding it, unless it is ignored already. Returns whether
/// it was added (`false` outside a repository too).
pub fn keep_out_of_git(file: &Path) -> std::io::Result<bool> {
    let Some((root, git_dir)) = repository_of(file) else {
        return Ok(false);
    };
    let Ok(relative) = file.strip_prefix(&root) else {
        return Ok(false);
    };
    let exclude = common_dir(&git_dir).join("info").join("exclude");
    if ignored(&root, &exclude, relative) {
        return Ok(false);
    }
    let pattern = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/");
    if let Some(dir) = exclude.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let existing = std::fs::read_to_string(&exclude).unwrap_or_default();
    let mut out = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&exclude)?;
    let separator = if existing.is_empty() || existing.ends_with('\n') {
        ""
    } else {
        "\n"
    };
    writeln!(out, "{separator}/{pattern}")?;
    Ok(true)
}

/// The working tree's root and git directory of the repository holding `file` (the nearest `.git` above it: a
/// directory, or a file naming the git directory, as in a linked worktree).
fn repository_of(file: &Path) -> Option<(PathBuf, PathBuf)> {
    for dir in file.parent()?.ancestors() {
        let dot_git = dir.join(".git");
        if dot_git.is_dir() {
            return Some((dir.to_path_buf(), dot_git));
        }
        if dot_git.is_file() {
            let text = std::fs::read_to_string(&dot_git).ok()?;
            let named = text.trim().strip_prefix("gitdir:")?.trim();
            return Some((dir.to_path_buf(), dir.join(named)));
        }
    }
    None
}

/// Where a repository keeps what its worktrees share (`info/exclude` among it).
fn common_dir(git_dir: &Path) -> PathBuf {
    match std::fs::read_to_string(git_dir.join("commondir")) {
        Ok(text) => git_dir.join(text.trim()),
        Err(_) => git_dir.to_path_buf(),
    }
}

/// Whether `relative` (under `root`) is ignored by the repository's ignore files, its exclude list or the person's
/// global ignore file.
fn ignored(root: &Path, exclude: &Path, relative: &Path) -> bool {
    let mut dir = root.to_path_buf();
    let mut rest = relative;
    let mut checks: Vec<(Gitignore, PathBuf)> = Vec::new();
    checks.push((exclude_list(root, exclude), relative.to_path_buf()));
    loop {
        let (here, _) = Gitignore::new(dir.join(".gitignore"));
        checks.push((here, rest.to_path_buf()));
        let mut parts = rest.components();
        let Some(first) = parts.next() else { break };
        if parts.as_path().as_os_str().is_empty() {
            break;
        }
        dir = dir.join(first);
        rest = parts.as_path();
    }
    let (global, _) = Gitignore::global();
    checks.push((global, relative.to_path_buf()));
    checks.into_iter().any(|(matcher, path)| {
        matcher
            .matched_path_or_any_parents(&path, false)
            .is_ignore()
    })
}

/// The exclude list, its patterns relative to the working tree's root.
fn exclude_list(root: &Path, exclude: &Path) -> Gitignore {
    let mut builder = GitignoreBuilder::new(root);
    for line in std::fs::read_to_string(exclude).unwrap_or_default().lines() {
        let _ = builder.add_line(None, line);
    }
    builder.build().unwrap_or_else(|_| Gitignore::empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repo() -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(dir.path().join(".git/info")).expect("git dir");
        std::fs::create_dir_all(dir.path().join(".claude")).expect(".claude");
        dir
    }

    fn exclude(dir: &Path) -> String {
        std::fs::read_to_string(dir.join(".git/info/exclude")).unwrap_or_default()
    }

    #[test]
    fn the_local_settings_are_added_to_the_exclude_list_once() {
        let dir = repo();
        std::fs::write(dir.path().join(".git/info/exclude"), "# git's own comment").expect("write");
        let file = dir.path().join(".claude/settings.local.json");
        assert!(keep_out_of_git(&file).expect("added"));
        assert!(!keep_out_of_git(&file).expect("already there"));
        assert_eq!(
            exclude(dir.path()),
            "# git's own comment\n/.claude/settings.local.json\n"
        );
    }

    #[test]
    fn a_file_an_ignore_file_covers_is_left_alone() {
        // (what .gitignore says, where)
        let rows: &[(&str, &str)] = &[
            (".gitignore", ".claude/settings.local.json\n"),
            (".gitignore", "*.local.json\n"),
            (".gitignore", ".claude/\n"),
            (".claude/.gitignore", "settings.local.json\n"),
        ];
        for (i, (path, text)) in rows.iter().enumerate() {
            let dir = repo();
            std::fs::write(dir.path().join(path), text).expect("write");
            let file = dir.path().join(".claude/settings.local.json");
            assert!(!keep_out_of_git(&file).expect("checked"), "row {i}");
            assert_eq!(exclude(dir.path()), "", "row {i}");
        }
    }

    #[test]
    fn outside_a_repository_nothing_is_written_and_a_worktree_uses_the_shared_list() {
        let plain = tempfile::tempdir().expect("tempdir");
        assert!(
            !keep_out_of_git(&plain.path().join(".claude/settings.local.json")).expect("checked")
        );

        let main = repo();
        let worktree = tempfile::tempdir().expect("tempdir");
        let git_dir = main.path().join(".git/worktrees/wt");
        std::fs::create_dir_all(&git_dir).expect("worktree git dir");
        std::fs::write(git_dir.join("commondir"), "../..\n").expect("commondir");
        std::fs::write(
            worktree.path().join(".git"),
            format!("gitdir: {}\n", git_dir.display()),
        )
        .expect(".git file");
        assert!(
            keep_out_of_git(&worktree.path().join(".claude/settings.local.json")).expect("added")
        );
        assert_eq!(exclude(main.path()), "/.claude/settings.local.json\n");
    }
}

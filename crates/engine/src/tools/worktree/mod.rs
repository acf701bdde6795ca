//! Git worktrees for isolated work: a sub-agent with `isolation: "worktree"` runs in a new worktree on a new branch
//! (`tandem/<name>`), in the app's data folder (outside the project, so that the project's `.claude/` protections
//! and file watchers are not involved). At the end a worktree without changes is removed with its branch; one with
//! changes is kept, and the window lists the kept ones ([`list_kept`]) and merges ([`merge`]) or discards
//! ([`discard`]) each.

mod git;
mod tools;

use std::path::{Path, PathBuf};

pub use git::GitError;
use git::{git, git_ok};
pub use tools::{EnterWorktreeTool, ExitWorktreeTool};

/// The prefix of the branches Tandem makes for worktrees.
pub const BRANCH_PREFIX: &str = "tandem/";

/// A worktree Tandem made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Worktree {
    /// The main repository's top folder.
    pub repo: PathBuf,
    /// The worktree's folder.
    pub path: PathBuf,
    pub branch: String,
    /// The commit it started from.
    pub base: String,
}

/// A kept worktree, for the window's list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptWorktree {
    pub path: PathBuf,
    pub branch: String,
    /// Files that differ from where the branch started (committed or not), relative to the worktree.
    pub changed_files: Vec<String>,
}

impl KeptWorktree {
    /// The form the window receives.
    pub fn to_protocol(&self) -> tandem_protocol::KeptWorktree {
        tandem_protocol::KeptWorktree {
            path: self.path.display().to_string(),
            branch: self.branch.clone(),
            changed_files: self.changed_files.clone(),
        }
    }
}

/// How isolated work ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorktreeEnd {
    pub path: PathBuf,
    pub branch: String,
    pub changed_files: Vec<String>,
    /// Whether the worktree and its branch were kept (they had changes); otherwise both were removed.
    pub kept: bool,
}

/// Where Tandem's worktrees live: `<data dir>/tandem/worktrees`.
pub fn worktrees_dir() -> PathBuf {
    crate::fsutil::app_data_dir_or_temp().join("worktrees")
}

/// Makes a worktree of the repository containing `dir` on a new branch `tandem/<name>` from its HEAD, in
/// [`worktrees_dir`] (`name` is made safe for a branch and a folder).
pub fn create(dir: &Path, name: &str) -> Result<Worktree, GitError> {
    let safe = folder_safe(name);
    make(dir, &safe, format!("{BRANCH_PREFIX}{safe}"))
}

/// Makes a worktree of the repository containing `dir` on a new branch named exactly `branch` from its HEAD, in
/// [`worktrees_dir`] (for work that becomes a pull request on that branch). `Err` when git refuses the name or the
/// branch exists.
pub fn create_on_branch(dir: &Path, branch: &str) -> Result<Worktree, GitError> {
    git_ok(dir, &["check-ref-format", "--branch", branch])?;
    make(dir, &folder_safe(branch), branch.to_string())
}

/// `name` with everything but ASCII letters, digits and `-` made `-`.
fn folder_safe(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '-'
            }
        })
        .collect()
}

/// Makes the worktree folder `<repo>-<safe>` on the new `branch`.
fn make(dir: &Path, safe: &str, branch: String) -> Result<Worktree, GitError> {
    let repo = main_repo(dir)?;
    let base = git(&repo, &["rev-parse", "HEAD"])?.trim().to_string();
    let repo_name = repo
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "repo".into());
    let path = worktrees_dir().join(format!("{repo_name}-{safe}"));
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| GitError::Io(e.to_string()))?;
    }
    let target = path.to_string_lossy().into_owned();
    git_ok(&repo, &["worktree", "add", "-b", &branch, &target, &base])?;
    Ok(Worktree {
        repo,
        path,
        branch,
        base,
    })
}

/// Files of the worktree at `path` that differ from commit `base`: committed on its branch or not, untracked
/// included.
pub fn changed_files(path: &Path, base: &str) -> Result<Vec<String>, GitError> {
    let mut files: Vec<String> = git(path, &["diff", "--name-only", base, "HEAD"])?
        .lines()
        .map(str::to_string)
        .collect();
    for line in git(path, &["status", "--porcelain", "--untracked-files=all"])?.lines() {
        if let Some(file) = line.get(3..) {
            let file = file.rsplit(" -> ").next().unwrap_or(file).trim_matches('"');
            files.push(file.to_string());
        }
    }
    files.sort();
    files.dedup();
    Ok(files)
}

/// Ends isolated work: keeps a changed worktree, removes an unchanged one with its branch.
pub fn finish(wt: &Worktree) -> Result<WorktreeEnd, GitError> {
    let changed_files = changed_files(&wt.path, &wt.base)?;
    let kept = !changed_files.is_empty();
    if !kept {
        remove(&wt.repo, &wt.path, &wt.branch)?;
    }
    Ok(WorktreeEnd {
        path: wt.path.clone(),
        branch: wt.branch.clone(),
        changed_files,
        kept,
    })
}

fn remove(repo: &Path, path: &Path, branch: &str) -> Result<(), GitError> {
    let target = path.to_string_lossy().into_owned();
    git_ok(repo, &["worktree", "remove", "--force", &target])?;
    git_ok(repo, &["branch", "-D", branch])
}

/// The main working tree of the repository containing `dir` (also when `dir` is in one of its worktrees).
pub fn main_repo(dir: &Path) -> Result<PathBuf, GitError> {
    let common = git(
        dir,
        &["rev-parse", "--path-format=absolute", "--git-common-dir"],
    )?;
    let common = PathBuf::from(common.trim());
    Ok(match common.file_name() {
        Some(name) if name == ".git" => common.parent().map(Path::to_path_buf).unwrap_or(common),
        _ => common,
    })
}

/// Whether `dir` lies in one of Tandem's worktrees.
pub fn is_tandem_worktree(dir: &Path) -> bool {
    dir.starts_with(worktrees_dir())
}

/// The worktrees of the repository containing `dir` that Tandem made and kept, with their changes.
pub fn list_kept(dir: &Path) -> Result<Vec<KeptWorktree>, GitError> {
    let repo = main_repo(dir)?;
    let listing = git(&repo, &["worktree", "list", "--porcelain"])?;
    let mut out = Vec::new();
    for entry in listing.split("\n\n") {
        let field = |key: &str| {
            entry
                .lines()
                .find_map(|l| l.strip_prefix(key).map(str::to_string))
        };
        let (Some(path), Some(branch)) = (field("worktree "), field("branch refs/heads/")) else {
            continue;
        };
        if !branch.starts_with(BRANCH_PREFIX) {
            continue;
        }
        let path = PathBuf::from(path);
        let base = git(&repo, &["merge-base", "HEAD", &branch])?
            .trim()
            .to_string();
        let changed_files = changed_files(&path, &base)?;
        out.push(KeptWorktree {
            path,
            branch,
            changed_files,
        });
    }
    Ok(out)
}

/// The kept worktree on `branch`, with the main repository.
pub fn kept(dir: &Path, branch: &str) -> Result<(PathBuf, KeptWorktree), GitError> {
    let repo = main_repo(dir)?;
    let found = list_kept(&repo)?
        .into_iter()
        .find(|w| w.branch == branch)
        .ok_or_else(|| GitError::Failed(format!("no kept worktree on branch {branch}")))?;
    Ok((repo, found))
}

/// Merges the kept worktree on `branch` into the repository's current branch (its uncommitted changes committed
/// first), then removes the worktree and the branch. A merge that conflicts is aborted and reported; nothing is
/// removed then.
pub fn merge(dir: &Path, branch: &str) -> Result<(), GitError> {
    let (repo, wt) = kept(dir, branch)?;
    if !git(&wt.path, &["status", "--porcelain"])?.trim().is_empty() {
        git_ok(&wt.path, &["add", "-A"])?;
        git_ok(
            &wt.path,
            &["commit", "-q", "-m", &format!("Changes made in {branch}")],
        )?;
    }
    if let Err(e) = git_ok(&repo, &["merge", "--no-edit", branch]) {
        let _ = git_ok(&repo, &["merge", "--abort"]);
        return Err(e);
    }
    remove(&repo, &wt.path, branch)
}

/// Removes the kept worktree on `branch` and the branch, dropping its changes.
pub fn discard(dir: &Path, branch: &str) -> Result<(), GitError> {
    let (repo, wt) = kept(dir, branch)?;
    remove(&repo, &wt.path, branch)
}

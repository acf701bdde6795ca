//! Safety checks no mode waives: protected paths (writes always ask: version control, editor and agent folders,
//! ssh, shell start-up files, the XDG configuration of tools that run commands) and `rm` aimed at critical paths.

use std::path::Path;

use super::path_pattern::CASE_INSENSITIVE_FS;

const PROTECTED_DIRS: &[&str] = &[".git", ".claude", ".vscode", ".idea", ".ssh"];
/// Folders under `.config` (the XDG configuration home) whose files make tools run commands or start programs:
/// git's global configuration, fish's start-up files, user services and autostart entries.
const PROTECTED_XDG: &[&str] = &[
    "git",
    "fish",
    "systemd",
    "autostart",
    "environment.d",
    "nvim",
];
const PROTECTED_FILES: &[&str] = &[
    ".bashrc",
    ".bash_profile",
    ".bash_login",
    ".bash_logout",
    ".profile",
    ".zshrc",
    ".zprofile",
    ".zshenv",
    ".zlogin",
    ".zlogout",
    ".cshrc",
    ".tcshrc",
    ".kshrc",
    ".mcp.json",
    ".gitconfig",
    ".gitmodules",
    ".inputrc",
];
/// `.claude/` sub-folders that bypassPermissions mode may write without asking.
const CLAUDE_EXEMPT: &[&str] = &["commands", "agents", "skills", "worktrees"];

fn same(a: &str, b: &str) -> bool {
    if CASE_INSENSITIVE_FS {
        a.eq_ignore_ascii_case(b)
    } else {
        a == b
    }
}

/// Why writing `path` is protected, if it is: `Some(exempt_in_bypass, what)`.
pub fn protected(path: &Path) -> Option<(bool, String)> {
    let parts: Vec<String> = path
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    for (i, part) in parts.iter().enumerate() {
        if let Some(dir) = PROTECTED_DIRS.iter().find(|d| same(part, d)) {
            if i + 1 == parts.len() {
                return Some((false, format!("{dir}/")));
            }
            let exempt = same(dir, ".claude")
                && parts
                    .get(i + 1)
                    .is_some_and(|next| CLAUDE_EXEMPT.iter().any(|e| same(next, e)))
                && i + 2 < parts.len();
            return Some((exempt, format!("{dir}/")));
        }
    }
    for (i, part) in parts.iter().enumerate() {
        if same(part, ".config")
            && let Some(tool) = parts.get(i + 1)
            && let Some(dir) = PROTECTED_XDG.iter().find(|d| same(tool, d))
        {
            return Some((false, format!(".config/{dir}/")));
        }
    }
    let name = parts.last()?;
    PROTECTED_FILES
        .iter()
        .find(|f| same(name, f))
        .map(|f| (false, (*f).to_string()))
}

/// Whether removing `path` would be catastrophic: `/`, the home directory, system folders, the project root or
/// anything above it.
pub fn critical_for_rm(path: &Path, project_root: &Path, home: Option<&Path>) -> bool {
    if path.parent().is_none() {
        return true;
    }
    if home.is_some_and(|h| h == path) {
        return true;
    }
    if project_root.starts_with(path) {
        return true;
    }
    // Every top-level folder (`/usr`, `/etc`, `/home`, ...).
    path.parent().is_some_and(|p| p.parent().is_none())
}

//! Safety checks of a Bash command no mode waives: `rm` and `find -delete` aimed at critical paths, and `git config`
//! writing git's configuration.

use std::path::PathBuf;

use tandem_protocol::SafetyCheck;

use super::super::PermissionContext;
use super::super::safety::critical_for_rm;
use super::super::verdict::{Evaluation, by_check};
use super::paths::resolve;
use crate::shell::{self, Part, Word, base_name, file_ops};

/// The forced ask for `rm`/`rmdir` aimed at a critical path.
pub(super) fn critical_rm(
    ctx: &PermissionContext,
    part: &Part,
    cwds: &[PathBuf],
) -> Option<Evaluation> {
    let (start, _) = shell::strip_for_deny(&part.cmd.words);
    let words = &part.cmd.words[start..];
    if let Some(e) = critical_find_delete(ctx, part, words, cwds) {
        return Some(e);
    }
    let at = words
        .iter()
        .position(|w| matches!(base_name(w.text()), "rm" | "rmdir"))?;
    let argv = &words[at..];
    for w in argv.iter().skip(1) {
        let t = w.text();
        if t.starts_with('-') && t != "-" {
            continue;
        }
        let raw = w.raw.as_str();
        let home_ref = raw == "~"
            || raw == "~/"
            || raw.starts_with("$HOME")
            || raw.starts_with("${HOME}")
            || raw.starts_with("\"$HOME")
            || raw.starts_with("\"${HOME}");
        let home_exact = home_ref
            && matches!(
                raw.trim_matches('"').trim_end_matches('/'),
                "~" | "$HOME" | "${HOME}" | "$HOME/*" | "${HOME}/*" | "~/*"
            );
        let critical = home_exact
            || resolve(w, cwds, ctx.home.as_deref())
                .into_iter()
                .flatten()
                .any(|f| {
                    critical_for_rm(&f.lexical, &ctx.project_root, ctx.home.as_deref())
                        || critical_for_rm(&f.resolved, &ctx.project_root, ctx.home.as_deref())
                });
        if critical {
            return Some(Evaluation::forced_ask(
                format!(
                    "`{}` removes a critical path ({raw}); this always asks",
                    part.text
                ),
                by_check(SafetyCheck::CriticalRemoval),
            ));
        }
    }
    None
}

/// The forced ask for `find START -delete` where START is `/`, the home directory, a top-level folder or a folder
/// above the project (the project root itself is not: find never removes its start point's own folder there).
fn critical_find_delete(
    ctx: &PermissionContext,
    part: &Part,
    words: &[Word],
    cwds: &[PathBuf],
) -> Option<Evaluation> {
    if words.first().map(|w| base_name(w.text())) != Some("find")
        || !words.iter().any(|w| w.text() == "-delete")
    {
        return None;
    }
    let home = ctx.home.as_deref();
    let ops = file_ops(words);
    let critical = ops.writes.iter().filter_map(|&i| words.get(i)).find(|w| {
        resolve(w, cwds, home).into_iter().flatten().any(|f| {
            [&f.lexical, &f.resolved].iter().any(|p| {
                p.as_path() != ctx.project_root.as_path()
                    && critical_for_rm(p, &ctx.project_root, home)
            })
        })
    })?;
    Some(Evaluation::forced_ask(
        format!(
            "`{}` deletes everything under a critical path ({}); this always asks",
            part.text, critical.raw
        ),
        by_check(SafetyCheck::CriticalRemoval),
    ))
}

/// The forced ask for `git config` setting a key the git key table does not call harmless to store: it writes `.git/config` or
/// `~/.gitconfig` (protected paths), and keys such as `core.hooksPath`, `alias.*` or `core.pager` run commands.
pub(super) fn git_config_write(part: &Part) -> Option<Evaluation> {
    let (start, _) = shell::strip_for_deny(&part.cmd.words);
    let words = &part.cmd.words[start..];
    if words.first().map(|w| base_name(w.text())) != Some("git") {
        return None;
    }
    let mut i = 1;
    while let Some(t) = words.get(i).map(|w| w.text()) {
        match t {
            "-C" | "-c" | "--git-dir" | "--work-tree" | "--namespace" => i += 2,
            _ if t.starts_with('-') => i += 1,
            _ => break,
        }
    }
    if words.get(i).map(|w| w.text()) != Some("config") {
        return None;
    }
    let rest = &words[i + 1..];
    let reading = rest.iter().any(|w| {
        let t = w.text();
        t.starts_with("--get") || matches!(t, "--list" | "-l" | "get" | "list")
    });
    let positional: Vec<&str> = rest
        .iter()
        .map(|w| w.text())
        .filter(|t| !t.starts_with('-'))
        .filter(|t| !matches!(*t, "set" | "unset"))
        .collect();
    let editing = rest.iter().any(|w| {
        let t = w.text();
        matches!(
            t,
            "-e" | "--edit" | "set" | "unset" | "--add" | "--unset" | "--unset-all"
        ) || t.starts_with("--replace")
            || t.starts_with("--rename-section")
            || t.starts_with("--remove-section")
    });
    if reading || !(editing || positional.len() >= 2) {
        return None;
    }
    let key = positional
        .first()
        .map(|k| k.to_ascii_lowercase())
        .unwrap_or_default();
    let harmless = matches!(
        shell::git_key(&key),
        shell::GitKey::Harmless { storable: true }
    );
    if harmless && !rest.iter().any(|w| matches!(w.text(), "-e" | "--edit")) {
        return None;
    }
    Some(Evaluation::forced_ask(
        format!(
            "`{}` writes git's configuration (.git/config or ~/.gitconfig, protected paths); this always asks",
            part.text
        ),
        by_check(SafetyCheck::ProtectedPath),
    ))
}

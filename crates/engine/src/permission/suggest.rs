//! "Yes, and don't ask again": the allow rules an approval turns into, and saving them to
//! `<git root>/.claude/settings.local.json` keeping every other key of that file.

use std::path::Path;

use serde_json::{Map, Value};

use super::PermissionContext;
use crate::shell::{Part, Word};

pub use super::rule_file::SaveError;

fn is_subcommand_word(w: &Word) -> bool {
    w.is_static()
        && !w.tilde
        && w.value.as_deref().is_some_and(|v| {
            !v.is_empty()
                && !v.starts_with('-')
                && v.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | ':'))
                && v.chars().any(|c| c.is_ascii_alphabetic())
        })
}

/// Programs for which no reusable rule is ever offered (only a one-time "Yes"): shells and runners that execute
/// whatever follows, privilege changes, and commands whose every use destroys or kills something.
const NEVER_REUSABLE: &[&str] = &[
    "sh",
    "bash",
    "zsh",
    "dash",
    "ksh",
    "fish",
    "csh",
    "tcsh",
    "eval",
    "exec",
    "source",
    ".",
    "env",
    "xargs",
    "nice",
    "nohup",
    "timeout",
    "time",
    "watch",
    "stdbuf",
    "setsid",
    "chroot",
    "nsenter",
    "unshare",
    "sudo",
    "doas",
    "su",
    "runuser",
    "pkexec",
    "rm",
    "rmdir",
    "shred",
    "dd",
    "mkfs",
    "wipefs",
    "truncate",
    "kill",
    "pkill",
    "killall",
    "reboot",
    "shutdown",
    "halt",
    "poweroff",
    "chmod",
    "chown",
    "chgrp",
    "ssh",
    "scp",
    "rsync",
    "crontab",
    "at",
    "systemctl",
    "docker",
    "kubectl",
    "find",
];

/// Interpreters: a reusable rule only for a named module (`python3 -m unittest`), never for a script or inline code.
const INTERPRETERS: &[&str] = &[
    "python", "python3", "python2", "node", "deno", "bun", "ruby", "perl", "php", "lua", "Rscript",
    "java",
];

/// Subcommands whose use destroys or publishes something: the exact command only, never a prefix.
const DESTRUCTIVE_SUBCOMMANDS: &[(&str, &str)] = &[
    ("git", "push"),
    ("git", "reset"),
    ("git", "clean"),
    ("git", "checkout"),
    ("git", "restore"),
    ("git", "rebase"),
    ("git", "branch"),
    ("git", "stash"),
    ("git", "rm"),
    ("git", "filter-branch"),
    ("git", "update-ref"),
    ("npm", "publish"),
    ("npm", "unpublish"),
    ("cargo", "publish"),
    ("cargo", "yank"),
];

/// The rule that would approve one subcommand next time, as narrow as stays useful: the program and its
/// subcommand words up to the first argument that looks like data (`Bash(npm run test *)`, `Bash(git commit *)`,
/// `Bash(python3 -m unittest *)`); the exact command where no prefix is safe (no subcommand word, a destructive
/// subcommand, an exec wrapper); nothing for shells, runners, privilege changes, interpreters running code and
/// commands that destroy (the person can still say "Yes" once).
pub fn bash_rule(part: &Part) -> Option<String> {
    if !part.env_safe || part.unanalysable.is_some() {
        return None;
    }
    let argv = part.argv();
    let program = argv.first()?;
    if !program.is_static() {
        return None;
    }
    let name = program.text().rsplit('/').next().unwrap_or_default();
    if NEVER_REUSABLE.contains(&name) || name.starts_with("mkfs") {
        return None;
    }
    // An exact rule repeats the command; one a rule cannot hold literally is not offered.
    let exact = || {
        let text = part.text.trim();
        (!text.contains(['*', '(', ')', '\n'])).then(|| format!("Bash({text})"))
    };
    if part.exec_wrapper.is_some() {
        return exact();
    }
    if INTERPRETERS.contains(&name) {
        let module = argv.get(2).filter(|w| is_subcommand_word(w));
        return match (argv.get(1).and_then(|w| w.value.as_deref()), module) {
            (Some("-m"), Some(module)) => {
                Some(format!("Bash({} -m {} *)", program.text(), module.text()))
            }
            _ => None,
        };
    }
    let mut words = vec![program.text().to_string()];
    for w in argv.iter().skip(1).take(2) {
        if !is_subcommand_word(w) {
            break;
        }
        words.push(w.text().to_string());
    }
    let destructive = words
        .get(1)
        .is_some_and(|sub| DESTRUCTIVE_SUBCOMMANDS.contains(&(name, sub.as_str())));
    if words.len() == 1 || destructive {
        return exact();
    }
    Some(format!("Bash({} *)", words.join(" ")))
}

/// A rule approving `family` on the folder holding `path`: `/rel/dir/**` inside the project, `//abs/dir/**`
/// outside it.
pub fn path_rule(family: &str, ctx: &PermissionContext, path: &Path) -> Vec<String> {
    let dir = path.parent().unwrap_or(path);
    let text = match dir.strip_prefix(&ctx.project_root) {
        Ok(rel) if rel.as_os_str().is_empty() => "/**".to_string(),
        Ok(rel) => format!("/{}/**", rel.display()),
        Err(_) => format!("/{}/**", dir.display()),
    };
    if text.contains(['(', ')']) {
        return Vec::new();
    }
    vec![format!("{family}({text})")]
}

/// Adds `rules` to `permissions.allow` of the settings file at `file`, creating it (and its folder) if needed and
/// keeping every other key and rule. Rules already present are not added twice.
pub fn save_allow_rules(file: &Path, rules: &[String]) -> Result<(), SaveError> {
    add_to_list(file, &["permissions", "allow"], rules)
}

/// Adds `items` to the array at `keys` (objects created as needed) of the settings file at `file`, keeping
/// everything else; items already present are not added twice. Written to a temporary file, then renamed over.
pub(crate) fn add_to_list(file: &Path, keys: &[&str], items: &[String]) -> Result<(), SaveError> {
    let path = file.display().to_string();
    let mut root = super::rule_file::read_root(file)?;
    let Some((last, objects)) = keys.split_last() else {
        return Ok(());
    };
    let mut node = &mut root;
    let mut walked = String::new();
    for key in objects {
        let Some(obj) = node.as_object_mut() else {
            return Err(SaveError::Malformed {
                path,
                message: format!("`{}` is not an object", display_keys(&walked)),
            });
        };
        walked = if walked.is_empty() {
            key.to_string()
        } else {
            format!("{walked}.{key}")
        };
        node = obj
            .entry(key.to_string())
            .or_insert_with(|| Value::Object(Map::new()));
    }
    let Some(obj) = node.as_object_mut() else {
        return Err(SaveError::Malformed {
            path,
            message: format!("`{}` is not an object", display_keys(&walked)),
        });
    };
    let list = obj
        .entry(last.to_string())
        .or_insert_with(|| Value::Array(Vec::new()));
    let Some(list) = list.as_array_mut() else {
        return Err(SaveError::Malformed {
            path,
            message: format!("`{}` is not an array", keys.join(".")),
        });
    };
    for item in items {
        if !list.iter().any(|r| r.as_str() == Some(item)) {
            list.push(Value::String(item.clone()));
        }
    }
    let mut text = serde_json::to_string_pretty(&root).map_err(|e| SaveError::Malformed {
        path: path.clone(),
        message: e.to_string(),
    })?;
    text.push('\n');
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir).map_err(|source| SaveError::Write {
            path: path.clone(),
            source,
        })?;
    }
    let tmp = file.with_extension("json.tandem-tmp");
    std::fs::write(&tmp, text)
        .and_then(|_| std::fs::rename(&tmp, file))
        .map_err(|source| SaveError::Write { path, source })?;
    keep_local_settings_out_of_git(file);
    Ok(())
}

/// The project's local settings are the person's own: once written, they are kept out of the repository (see
/// [`crate::fsutil::keep_out_of_git`]). Failing to do so does not fail the save.
fn keep_local_settings_out_of_git(file: &Path) {
    let local = file.file_name().is_some_and(|n| n == "settings.local.json")
        && file
            .parent()
            .and_then(Path::file_name)
            .is_some_and(|n| n == ".claude");
    if local && let Err(e) = crate::fsutil::keep_out_of_git(file) {
        tracing::warn!(
            "{} was not added to the repository's ignore list: {e}",
            file.display()
        );
    }
}

fn display_keys(walked: &str) -> &str {
    if walked.is_empty() {
        "the top level"
    } else {
        walked
    }
}

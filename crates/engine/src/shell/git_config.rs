//! What a git configuration key does, in one table read both for `git -c KEY=VALUE` (and `clone --config`,
//! `--config-env`, `GIT_CONFIG_PARAMETERS`) and for `git config KEY VALUE` writes: harmless keys, keys whose value
//! is a command git runs (pagers, editors, ssh, diff and merge drivers, filters, aliases, helpers), and keys that
//! load code the analysis cannot see (hook folders, included files, transports). A key in none of these is unknown.

/// What git does with a configuration key's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GitKey {
    /// Only display, identity or workflow preferences. `storable`: writing it with `git config` is harmless too
    /// (`safe.directory` is honoured for one command, but stored it lets other people's repositories run their
    /// configuration).
    Harmless { storable: bool },
    /// The value is shell text git runs (`core.pager`, `diff.external`, `alias.x=!cmd`, ...).
    Script,
    /// The value is a program git runs with arguments of its own (`gpg.program`).
    Program,
    /// The value is a git command line (`alias.co=checkout`): `git VALUE ARGS`.
    Alias,
    /// The value makes git run or load code that cannot be seen here (a hooks folder, an included file, a transport).
    Code,
    /// Not in the table: what it does is not known.
    Unknown,
}

/// Keys (lower case; `*` stands for one subsection name) and what their value is, first match wins.
const KEYS: &[(&str, GitKey)] = &[
    ("user.*", GitKey::Harmless { storable: true }),
    ("color.*", GitKey::Harmless { storable: true }),
    ("advice.*", GitKey::Harmless { storable: true }),
    ("log.*", GitKey::Harmless { storable: true }),
    ("init.defaultbranch", GitKey::Harmless { storable: true }),
    ("core.quotepath", GitKey::Harmless { storable: true }),
    ("core.autocrlf", GitKey::Harmless { storable: true }),
    ("core.filemode", GitKey::Harmless { storable: true }),
    ("pull.rebase", GitKey::Harmless { storable: true }),
    ("pull.ff", GitKey::Harmless { storable: true }),
    ("push.default", GitKey::Harmless { storable: true }),
    ("push.autosetupremote", GitKey::Harmless { storable: true }),
    ("fetch.prune", GitKey::Harmless { storable: true }),
    ("merge.conflictstyle", GitKey::Harmless { storable: true }),
    ("diff.algorithm", GitKey::Harmless { storable: true }),
    ("diff.renames", GitKey::Harmless { storable: true }),
    ("column.*", GitKey::Harmless { storable: true }),
    ("safe.directory", GitKey::Harmless { storable: false }),
    ("core.pager", GitKey::Script),
    ("core.editor", GitKey::Script),
    ("core.sshcommand", GitKey::Script),
    ("core.gitproxy", GitKey::Script),
    ("core.askpass", GitKey::Script),
    ("core.fsmonitor", GitKey::Script),
    ("core.alternaterefscommand", GitKey::Script),
    ("sequence.editor", GitKey::Script),
    ("pager.*", GitKey::Script),
    ("diff.external", GitKey::Script),
    ("diff.*.command", GitKey::Script),
    ("diff.*.textconv", GitKey::Script),
    ("merge.*.driver", GitKey::Script),
    ("filter.*.clean", GitKey::Script),
    ("filter.*.smudge", GitKey::Script),
    ("filter.*.process", GitKey::Script),
    ("difftool.*.cmd", GitKey::Script),
    ("mergetool.*.cmd", GitKey::Script),
    ("man.*.cmd", GitKey::Script),
    ("browser.*.cmd", GitKey::Script),
    ("uploadpack.packobjectshook", GitKey::Script),
    ("remote.*.uploadpack", GitKey::Script),
    ("remote.*.receivepack", GitKey::Script),
    ("sendemail.sendmailcmd", GitKey::Script),
    ("submodule.*.update", GitKey::Script),
    ("credential.helper", GitKey::Script),
    ("credential.*.helper", GitKey::Script),
    ("gpg.program", GitKey::Program),
    ("gpg.*.program", GitKey::Program),
    ("man.*.path", GitKey::Program),
    ("browser.*.path", GitKey::Program),
    ("web.browser", GitKey::Program),
    ("alias.*", GitKey::Alias),
    ("core.hookspath", GitKey::Code),
    ("init.templatedir", GitKey::Code),
    ("include.path", GitKey::Code),
    ("includeif.*.path", GitKey::Code),
    ("protocol.*", GitKey::Code),
    ("remote.*.vcs", GitKey::Code),
    ("core.worktree", GitKey::Code),
];

/// Whether `key` (lower case) matches the table's `pattern`.
fn key_matches(pattern: &str, key: &str) -> bool {
    if let Some(section) = pattern.strip_suffix(".*")
        && !section.contains('*')
    {
        return key
            .strip_prefix(section)
            .is_some_and(|rest| rest.starts_with('.') && rest.len() > 1);
    }
    let Some((head, tail)) = pattern.split_once(".*.") else {
        return pattern == key;
    };
    key.strip_prefix(head)
        .and_then(|rest| rest.strip_prefix('.'))
        .and_then(|rest| rest.strip_suffix(tail))
        .is_some_and(|middle| middle.ends_with('.') && middle.len() > 1)
}

/// What git does with the value of `key` (case-insensitive; a subsection keeps its case but is only matched by
/// `*`).
pub fn git_key(key: &str) -> GitKey {
    let key = key.to_ascii_lowercase();
    KEYS.iter()
        .find(|(pattern, _)| key_matches(pattern, &key))
        .map_or(GitKey::Unknown, |(_, what)| *what)
}

/// A boolean value (`true`, `no`, `1`, ...): for keys such as `core.fsmonitor` and `pager.<cmd>` it switches git's
/// own behaviour instead of naming a command.
pub fn is_git_bool(value: &str) -> bool {
    matches!(
        value.to_ascii_lowercase().as_str(),
        "true" | "false" | "yes" | "no" | "on" | "off" | "1" | "0" | ""
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_table_says_what_each_key_does() {
        assert_eq!(git_key("user.name"), GitKey::Harmless { storable: true });
        assert_eq!(git_key("Color.UI"), GitKey::Harmless { storable: true });
        assert_eq!(
            git_key("safe.directory"),
            GitKey::Harmless { storable: false }
        );
        assert_eq!(git_key("core.pager"), GitKey::Script);
        assert_eq!(git_key("core.sshCommand"), GitKey::Script);
        assert_eq!(git_key("diff.pdf.textconv"), GitKey::Script);
        assert_eq!(git_key("filter.lfs.smudge"), GitKey::Script);
        assert_eq!(git_key("alias.co"), GitKey::Alias);
        assert_eq!(git_key("gpg.ssh.program"), GitKey::Program);
        assert_eq!(git_key("core.hooksPath"), GitKey::Code);
        assert_eq!(git_key("includeIf.gitdir:~/x/.path"), GitKey::Code);
        assert_eq!(git_key("core.bare"), GitKey::Unknown);
        assert_eq!(git_key("user"), GitKey::Unknown);
        assert_eq!(git_key("diff.textconv"), GitKey::Unknown);
        assert!(is_git_bool("True") && !is_git_bool("less"));
    }
}

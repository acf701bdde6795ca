//! Commands hidden in option values and environment variables: `git rebase --exec CMD`, `git -c core.pager=CMD`,
//! `ssh -o ProxyCommand=CMD`, `tar -I CMD`, `rsync -e CMD`, `git bisect run CMD`, `PAGER=CMD git log`,
//! `GIT_SSH_COMMAND=CMD`, `make CC=CMD`, ... A literal one is a command like any other (the analysis adds it as a
//! part, so rules and path checks see it); one only known when it runs, and code that cannot be analysed
//! (`LD_PRELOAD`, `ssh -F`, unknown `git -c` keys), make the command unanalysable. What carries each is named, for
//! the reasons a person reads.

use super::git_config::{GitKey, git_key, is_git_bool};
use super::option_table::{Found, Role, git_subcommand_at, options_of};
use super::strip::assignment_name;
use super::variables::{VarRole, options_load_code, variable_role};
use super::word::{Word, base_name};
use super::{Assignment, is_shell};

/// A command (or code) a program takes from an option or a variable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Carried {
    /// What carries it, in words: "the `--exec` option of `git rebase`", "the variable `PAGER`".
    pub by: String,
    pub what: CarriedWhat,
    /// It runs in another folder (`git submodule foreach` runs in each submodule).
    pub elsewhere: bool,
}

/// What is carried.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CarriedWhat {
    /// Shell text the program runs.
    Script(String),
    /// A command as words (the program splits the value itself, or takes the rest of its arguments).
    Words(Vec<Word>),
    /// Not analysable, and why.
    Unknown(String),
}

fn carry(by: String, what: CarriedWhat) -> Carried {
    Carried {
        by,
        what,
        elsewhere: false,
    }
}

/// The words of a value the program splits on blanks.
fn split(value: &str) -> Vec<Word> {
    value.split_whitespace().map(Word::literal).collect()
}

/// The command a value stands for, or why it is unknown. Shell text and a program with its arguments read the
/// same: rsync, tar and git split a program's arguments honouring quotes, as the shell does.
fn command(by: &str, value: &Word) -> Option<CarriedWhat> {
    let Some(text) = value.value.as_deref().filter(|_| !value.glob) else {
        return Some(CarriedWhat::Unknown(format!(
            "{by} gives a command (`{}`) only known when it runs",
            value.raw
        )));
    };
    if text.trim().is_empty() {
        return None;
    }
    Some(CarriedWhat::Script(text.to_string()))
}

/// What a variable assignment carries, if anything.
fn variable(name: &str, value: &Word) -> Option<Carried> {
    let role = variable_role(name)?;
    let by = format!("the variable `{name}`");
    let text = value.value.as_deref();
    if text.is_some_and(|t| t.is_empty()) {
        return None;
    }
    let unknown = |why: String| Some(carry(by.clone(), CarriedWhat::Unknown(why)));
    match role {
        VarRole::Script => {
            // `LESSOPEN='|lesspipe %s'`: the bars only say how less reads the output.
            let value = match text {
                Some(t) => Word::literal(t.trim_start_matches(['|', '-'])),
                None => value.clone(),
            };
            command(&by, &value).map(|what| carry(by, what))
        }
        VarRole::Program => {
            // `SHELL=/bin/bash`: naming a shell is not running one.
            if let Some(t) = text
                && t.split_whitespace().count() == 1
                && is_shell(t.trim())
            {
                return None;
            }
            command(&by, value).map(|what| carry(by, what))
        }
        VarRole::Code => unknown(format!(
            "{by} makes programs load code from `{}`, which cannot be analysed",
            value.raw
        )),
        VarRole::InterpreterOptions => match text {
            Some(t) if !options_load_code(name, t) => None,
            _ => unknown(format!(
                "{by} gives start-up options (`{}`) that load or run code, which cannot be analysed",
                value.raw
            )),
        },
        VarRole::Config => unknown(format!(
            "{by} points programs at configuration (`{}`) that can run commands",
            value.raw
        )),
        VarRole::Write | VarRole::Trace => None,
    }
}

/// The value of a `NAME=VALUE` word (unknown when the word is).
fn assigned_value(w: &Word) -> Word {
    match w.value.as_deref() {
        Some(t) => Word::literal(t.split_once('=').map_or("", |(_, v)| v)),
        None => Word {
            raw: w.raw.clone(),
            ..Word::default()
        },
    }
}

/// `(name, value)` of every variable a part sets for its command: leading assignments, the `NAME=VALUE` words
/// before the program (and those `env`, `sudo` and `doas` take), and `export`/`declare` of later commands.
pub fn assignments(
    assigned: &[Assignment],
    words: &[Word],
    program_at: usize,
) -> Vec<(String, Word)> {
    let mut out: Vec<(String, Word)> = assigned
        .iter()
        .map(|a| (a.name.clone(), a.value.clone()))
        .collect();
    let takes_assignments = |w: &Word| matches!(base_name(w.text()), "env" | "sudo" | "doas");
    let runner = words.first().is_some_and(takes_assignments);
    for (i, w) in words.iter().enumerate() {
        let before_program = i < program_at;
        if !(before_program || (runner && i > 0)) {
            continue;
        }
        let Some(name) = assignment_name(w) else {
            if runner && i > 0 && !w.text().starts_with('-') {
                break;
            }
            continue;
        };
        let value = assigned_value(w);
        out.push((name.to_string(), value));
    }
    out
}

/// What an `ssh -o` setting carries: `ProxyCommand`, `LocalCommand`, `KnownHostsCommand`, `RemoteCommand` run
/// commands; providers and includes load code.
fn ssh_option(program: &str, value: &Word) -> Option<Carried> {
    let Some(text) = value.value.as_deref() else {
        return Some(carry(
            format!("an `-o` option of `{program}`"),
            CarriedWhat::Unknown(format!(
                "`{program} -o {}` is only known when it runs",
                value.raw
            )),
        ));
    };
    let (key, setting) = text
        .split_once(['=', ' ', '\t'])
        .map_or((text, ""), |(k, v)| (k, v.trim_start_matches(['=', ' '])));
    let by = format!("the `{key}` option of `{program} -o`");
    match key.to_ascii_lowercase().as_str() {
        "proxycommand" | "localcommand" | "knownhostscommand" | "remotecommand"
            if !setting.eq_ignore_ascii_case("none") =>
        {
            command(&by, &Word::literal(setting)).map(|what| carry(by, what))
        }
        "pkcs11provider" | "securitykeyprovider" | "include" | "match" => Some(carry(
            by.clone(),
            CarriedWhat::Unknown(format!(
                "{by} loads code or settings that cannot be analysed"
            )),
        )),
        _ => None,
    }
}

/// What a `git -c key=value` carries (`args`: the words after git's subcommand, for aliases).
fn git_setting(found: &Found, words: &[Word]) -> Option<Carried> {
    let value = found.value.as_ref()?;
    let Some(text) = value.value.as_deref() else {
        return Some(carry(
            "a `-c` setting of `git`".into(),
            CarriedWhat::Unknown(format!("`git -c {}` is only known when it runs", value.raw)),
        ));
    };
    let (key, setting) = text.split_once('=').unwrap_or((text, "true"));
    let by = format!("the `{key}` setting of `git -c`");
    let from_env = found.opt.role == Role::GitConfigEnv;
    let unknown = |why: String| Some(carry(by.clone(), CarriedWhat::Unknown(why)));
    match git_key(key) {
        GitKey::Harmless { .. } => None,
        _ if from_env => unknown(format!(
            "{by} takes its value from the environment variable `{setting}`, only known when it runs"
        )),
        GitKey::Script
            if is_git_bool(setting)
                && (key.eq_ignore_ascii_case("core.fsmonitor")
                    || key.to_ascii_lowercase().starts_with("pager.")) =>
        {
            None
        }
        GitKey::Script => command(&by, &Word::literal(setting.trim_start_matches('!')))
            .map(|what| carry(by, what)),
        GitKey::Program => command(&by, &Word::literal(setting)).map(|what| carry(by, what)),
        GitKey::Alias => {
            if let Some(shell) = setting.strip_prefix('!') {
                return command(&by, &Word::literal(shell)).map(|what| carry(by, what));
            }
            // `git -c alias.p=push p origin` runs `git push origin`.
            let alias = key.split_once('.').map_or("", |(_, name)| name);
            let mut cmd = vec![Word::literal("git")];
            cmd.extend(split(setting));
            if let Some((at, sub)) = git_subcommand_at(words)
                && sub == alias
            {
                cmd.extend(words[at + 1..].iter().cloned());
            }
            Some(carry(by, CarriedWhat::Words(cmd)))
        }
        GitKey::Code => unknown(format!(
            "{by} makes git load code or settings (`{setting}`) that cannot be analysed"
        )),
        GitKey::Unknown => unknown(format!(
            "{by} is not a setting known to be harmless, and settings can make git run commands"
        )),
    }
}

/// The commands the options of `words` (the program first, wrappers and assignments stripped) carry.
fn from_options(words: &[Word]) -> Vec<Carried> {
    let Some(first) = words.first() else {
        return Vec::new();
    };
    let program = base_name(first.text());
    let mut out = Vec::new();
    let shown = match git_subcommand_at(words) {
        Some((_, sub)) if program == "git" => format!("git {sub}"),
        _ => program.to_string(),
    };
    for found in options_of(program, words) {
        let name = if found.opt.long.is_empty() {
            format!("-{}", found.opt.short.unwrap_or('?'))
        } else {
            format!("--{}", found.opt.long)
        };
        let by = format!("the `{name}` option of `{shown}`");
        let value = found.value.as_ref();
        let item = match (found.opt.role, value) {
            (Role::Runs(_) | Role::RunsAttached(_), Some(v)) => {
                command(&by, v).map(|what| carry(by, what))
            }
            (Role::Runs(_), None) => None,
            (Role::Code, _) | (Role::CodeAttached, Some(_)) => Some(carry(
                by.clone(),
                CarriedWhat::Unknown(format!(
                    "{by} gives code or settings that cannot be analysed"
                )),
            )),
            (Role::SshOption, Some(v)) => ssh_option(program, v),
            (Role::GitConfig | Role::GitConfigEnv, Some(_)) => git_setting(&found, words),
            (Role::TarCheckpoint, Some(v)) => match v.value.as_deref() {
                Some(t) => t
                    .strip_prefix("exec=")
                    .and_then(|cmd| command(&by, &Word::literal(cmd)).map(|what| carry(by, what))),
                None => command(&by, v).map(|what| carry(by, what)),
            },
            _ => None,
        };
        out.extend(item);
    }
    out
}

/// Commands given as the rest of the arguments: `git bisect run CMD ARGS`, `git submodule foreach CMD`, `zip -TT
/// CMD`, `gcc -wrapper PROG,ARGS`, and the program variables `make` takes as arguments (`make CC=CMD`).
fn from_arguments(words: &[Word]) -> Vec<Carried> {
    let Some(first) = words.first() else {
        return Vec::new();
    };
    let program = base_name(first.text());
    let mut out = Vec::new();
    match program {
        "git" => {
            let Some((at, sub)) = git_subcommand_at(words) else {
                return out;
            };
            let rest = &words[at + 1..];
            match sub {
                "bisect" if rest.first().map(Word::text) == Some("run") && rest.len() > 1 => {
                    out.push(carry(
                        "`git bisect run`".into(),
                        CarriedWhat::Words(rest[1..].to_vec()),
                    ));
                }
                "submodule" if rest.first().map(Word::text) == Some("foreach") => {
                    let cmd: Vec<Word> = rest[1..]
                        .iter()
                        .skip_while(|w| w.text().starts_with('-'))
                        .cloned()
                        .collect();
                    let what = match cmd.as_slice() {
                        [] => None,
                        [one] => command("`git submodule foreach`", one),
                        _ => Some(CarriedWhat::Words(cmd)),
                    };
                    out.extend(what.map(|what| Carried {
                        by: "`git submodule foreach`".into(),
                        what,
                        elsewhere: true,
                    }));
                }
                _ => {}
            }
        }
        "zip" => {
            if let Some(at) = words.iter().position(|w| w.text() == "-TT")
                && let Some(v) = words.get(at + 1)
            {
                let by = "the `-TT` option of `zip`".to_string();
                out.extend(command(&by, v).map(|what| carry(by, what)));
            }
        }
        "gcc" | "cc" | "clang" | "g++" | "c++" | "clang++" => {
            if let Some(at) = words.iter().position(|w| w.text() == "-wrapper")
                && let Some(v) = words.get(at + 1)
            {
                let by = format!("the `-wrapper` option of `{program}`");
                let value = match v.value.as_deref() {
                    Some(t) => Word::literal(&t.replace(',', " ")),
                    None => v.clone(),
                };
                out.extend(command(&by, &value).map(|what| carry(by, what)));
            }
        }
        "make" | "gmake" => {
            for w in &words[1..] {
                let Some(name) = assignment_name(w) else {
                    continue;
                };
                let value = assigned_value(w);
                if matches!(
                    variable_role(name),
                    Some(VarRole::Program | VarRole::Script)
                ) {
                    let by = format!("the variable `{name}` given to `{program}`");
                    // The shell make runs its recipes with: naming one is not running one.
                    if name == "SHELL" && value.value.as_deref().is_some_and(is_shell) {
                        continue;
                    }
                    out.extend(command(&by, &value).map(|what| carry(by, what)));
                }
            }
        }
        _ => {}
    }
    out
}

/// Everything `words` (from the program on) and `assigned` (the variables it runs with) carry.
pub fn carried(words: &[Word], assigned: &[(String, Word)]) -> Vec<Carried> {
    let mut out: Vec<Carried> = assigned
        .iter()
        .filter_map(|(name, value)| variable(name, value))
        .collect();
    out.extend(from_options(words));
    out.extend(from_arguments(words));
    out
}

/// Files variables make a program write: trace files (`GIT_TRACE=/tmp/t`), history and key-log files, a git index
/// elsewhere. Each as `(what names it, the path word)`.
pub fn variable_writes(assigned: &[(String, Word)]) -> Vec<(String, Word)> {
    assigned
        .iter()
        .filter_map(|(name, value)| {
            let role = variable_role(name)?;
            let path = match (role, value.value.as_deref()) {
                (VarRole::Write, Some("")) => return None,
                (VarRole::Write, _) => value.clone(),
                (VarRole::Trace, Some(t)) => Word::literal(super::variables::trace_file(t)?),
                (VarRole::Trace, None) => value.clone(),
                _ => return None,
            };
            Some((format!("{name}={}", value.raw), path))
        })
        .collect()
}

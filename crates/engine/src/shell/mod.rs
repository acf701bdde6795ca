//! Shell analysis with tree-sitter-bash: split compound commands (finding nested ones), strip wrappers and
//! assignments, find redirections and file arguments, classify each part, and say what cannot be analysed.
//! Used by the permission engine and by the Bash tool (read-only detection for concurrency and the transcript).

mod brace;
mod carried;
mod classify;
mod destructive;
mod exit_status;
mod git_config;
mod interpreters;
mod known;
mod option_table;
mod options;
mod parse;
mod pattern;
mod strip;
mod variables;
mod walks;
mod word;
mod wrap;

pub use carried::{Carried, CarriedWhat, assignments, carried, variable_writes};
pub use classify::{
    CommandClass, FileOps, SedArgs, base_name, class_of, embedded_scripts, exec_wrapper, file_ops,
    git_dir_args, is_read_only, is_shell, looks_like_path, read_only_paths, runner_inner, sed_args,
    sed_script_is_dangerous, unanalysable,
};
pub use destructive::destructive_warnings;
pub use exit_status::deciding_program;
pub use git_config::{GitKey, git_key};
pub use option_table::{Role as OptionRole, git_subcommand_at, options_of};
pub use options::{abbreviates, option_files, option_value, runs_code};
pub use parse::{
    Assignment, ParsedScript, Redirect, RedirectKind, SimpleCommand, parse_script, parse_tree,
};
pub use pattern::BashPattern;
pub use strip::{assignment_name, is_safe_variable, strip_for_allow, strip_for_deny, wrapper_len};
pub use walks::{Walked, respects_ignores, walked};
pub use word::Word;
pub use wrap::{Inner, inner};

/// Commands longer than this are not analysed (they ask).
pub const MAX_COMMAND_CHARS: usize = 10_000;
/// How deep `sh -c` / `eval` strings are followed for deny and ask rules.
const MAX_EMBED_DEPTH: u32 = 4;
/// How many wrappers deep (`sudo env nice CMD`) the command a wrapper runs is followed.
const MAX_WRAP_DEPTH: u32 = 8;

/// One simple command of a script, analysed.
#[derive(Debug, Clone)]
pub struct Part {
    pub cmd: SimpleCommand,
    /// Index in `cmd.words` of the program an allow rule sees (after wrappers).
    pub start: usize,
    /// Every leading assignment is on the safe list (or there is none).
    pub env_safe: bool,
    /// Names of the leading assignments.
    pub env: Vec<String>,
    /// The command from `start`, word values joined by single spaces (what rules match).
    pub text: String,
    /// The same words as written.
    pub raw: String,
    /// More texts deny and ask rules match: past every wrapper and assignment, the bare program name, inner commands
    /// of exec wrappers, the unstripped command.
    pub deny_texts: Vec<String>,
    /// Set when no prefix rule may approve this part (exec wrappers and the like), with the reason.
    pub exec_wrapper: Option<&'static str>,
    /// Set when the part cannot be analysed, with the reason.
    pub unanalysable: Option<String>,
    pub class: CommandClass,
    /// Only deny and ask rules look at this part (it came from a `sh -c` string or similar).
    pub deny_only: bool,
    /// The part runs in a directory only known when it runs (`env -C DIR CMD`, `chroot DIR CMD`): its relative
    /// paths cannot be resolved.
    pub elsewhere: bool,
    /// What runs this part when it is a command carried by an option value or a variable ("the `--exec` option of
    /// `git rebase`"), for the reasons a person reads.
    pub carrier: Option<String>,
}

impl Part {
    /// The words of the program an allow rule sees.
    pub fn argv(&self) -> &[Word] {
        &self.cmd.words[self.start.min(self.cmd.words.len())..]
    }

    /// The program name, if known.
    pub fn program(&self) -> Option<&str> {
        self.argv().first().and_then(|w| w.value.as_deref())
    }
}

/// A whole command line, analysed.
#[derive(Debug, Clone, Default)]
pub struct Analysis {
    pub parts: Vec<Part>,
    /// Set when the command as a whole cannot be analysed (syntax error, too long), with the reason.
    pub unanalysable: Option<String>,
}

impl Analysis {
    /// The first reason anything in the command cannot be analysed, nested commands included.
    pub fn unanalysable_reason(&self) -> Option<&str> {
        self.unanalysable
            .as_deref()
            .or_else(|| self.parts.iter().find_map(|p| p.unanalysable.as_deref()))
    }

    /// The class of the whole command: read-only when every part is search, read, list or neutral.
    pub fn is_read_only(&self) -> bool {
        self.unanalysable_reason().is_none()
            && self.parts.iter().all(|p| {
                p.cmd.redirects.iter().all(|r| {
                    r.kind != RedirectKind::Write
                        || r.target.as_ref().is_some_and(|t| is_null_device(t.text()))
                }) && (p.cmd.words.is_empty()
                    || (p.class != CommandClass::Other
                        && p.exec_wrapper.is_none()
                        && p.env_safe
                        && is_read_only(p.argv())))
            })
    }
}

/// `/dev/null`, `/dev/stdout`, `/dev/stderr`: redirections there write no file.
pub fn is_null_device(path: &str) -> bool {
    matches!(
        path,
        "/dev/null" | "/dev/stdout" | "/dev/stderr" | "/dev/tty" | "/dev/fd/1" | "/dev/fd/2"
    )
}

fn join<'a>(words: impl Iterator<Item = &'a str>) -> String {
    let mut out = String::new();
    for w in words {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

/// Analyses a command line.
pub fn analyse(command: &str) -> Analysis {
    let mut analysis = Analysis::default();
    if command.chars().count() > MAX_COMMAND_CHARS {
        analysis.unanalysable = Some(format!(
            "the command is longer than {MAX_COMMAND_CHARS} characters"
        ));
        return analysis;
    }
    analyse_into(command, &mut analysis, 0);
    if analysis.unanalysable.is_none() && analysis.parts.len() > 1 && makes_symlink(&analysis) {
        analysis.unanalysable =
            Some("a symbolic link it makes could redirect its other paths".into());
    }
    analysis
}

/// Whether a part makes a symbolic link (`ln -s`, `cp -s`): later paths of the same command may go through it.
fn makes_symlink(analysis: &Analysis) -> bool {
    analysis.parts.iter().any(|p| {
        let argv = p.argv();
        let program = argv.first().map(|w| base_name(w.text()));
        matches!(program, Some("ln" | "cp"))
            && argv[1..].iter().any(|w| {
                let t = w.text();
                (t.starts_with('-') && !t.starts_with("--") && t.contains('s'))
                    || t.starts_with("--sym")
            })
    })
}

fn analyse_into(command: &str, analysis: &mut Analysis, embed: u32) {
    let parsed = parse_script(command);
    if let Some(error) = parsed.error {
        if embed == 0 {
            analysis.unanalysable = Some(error);
        } else if analysis.unanalysable.is_none() {
            analysis.unanalysable = Some(format!("a command it runs as text: {error}"));
        }
    }
    for cmd in parsed.commands {
        push_part(cmd, embed > 0, analysis, embed, 0);
    }
}

/// Analyses `cmd`, adds it, then the commands it runs: shell text (`sh -c`, `eval`) and the commands of wrappers
/// (`sudo CMD`, `find -exec CMD ;`), which only deny rules, ask rules and safety checks look at.
fn push_part(cmd: SimpleCommand, deny_only: bool, analysis: &mut Analysis, embed: u32, wrap: u32) {
    let depth = cmd.depth;
    let mut part = analyse_command(cmd, deny_only);
    let words = if part.cmd.words.is_empty() || part.cmd.keyword {
        &[][..]
    } else {
        &part.cmd.words[strip_for_deny(&part.cmd.words).0..]
    };
    let mut scripts = embedded_scripts(words);
    let mut inner_commands = Vec::new();
    let elsewhere = part.elsewhere || wrap::changes_directory(words);
    let program_at = if part.cmd.keyword || part.cmd.words.is_empty() {
        0
    } else {
        strip_for_deny(&part.cmd.words).0
    };
    let assigned = carried::assignments(&part.cmd.assignments, &part.cmd.words, program_at);
    let carried = carried::carried(words, &assigned);
    for c in &carried {
        if let CarriedWhat::Unknown(why) = &c.what {
            part.unanalysable.get_or_insert_with(|| why.clone());
        }
    }
    match wrap::inner(words) {
        Inner::None => {
            if let Some((at, why)) = suspect_runner(words) {
                inner_commands.push(words[at..].to_vec());
                if let Some(why) = why {
                    part.unanalysable.get_or_insert(why);
                }
            }
        }
        Inner::Commands(cmds) => inner_commands = cmds,
        Inner::Script(script) => {
            part.unanalysable
                .get_or_insert_with(|| "it runs a string as shell commands".into());
            if !scripts.contains(&script) {
                scripts.push(script);
            }
        }
        Inner::Unknown(why) => {
            part.unanalysable.get_or_insert(why);
        }
    }
    analysis.parts.push(part);
    if embed < MAX_EMBED_DEPTH {
        for script in scripts {
            analyse_into(&script, analysis, embed + 1);
        }
        for c in carried {
            push_carried(c, deny_only, analysis, embed + 1, elsewhere, depth);
        }
    } else if !carried.is_empty() && analysis.unanalysable.is_none() {
        analysis.unanalysable = Some("commands nested too deeply".into());
    }
    if wrap < MAX_WRAP_DEPTH {
        for words in inner_commands {
            let cmd = SimpleCommand {
                words,
                depth: depth + 1,
                ..SimpleCommand::default()
            };
            push_part_in(cmd, analysis, embed, wrap + 1, elsewhere);
        }
    } else if !inner_commands.is_empty() && analysis.unanalysable.is_none() {
        analysis.unanalysable = Some("wrappers nested too deeply".into());
    }
}

/// For a program the analysis does not know whose first argument names a command (`mytool rm -rf x`): where that
/// command starts (deny and ask rules see it), and, when the command is a dangerous one, why the whole cannot be
/// vouched for.
fn suspect_runner(words: &[Word]) -> Option<(usize, Option<String>)> {
    let first = words.first()?;
    let program = base_name(first.value.as_deref()?);
    if known::is_known(program)
        || wrap::is_wrapper(program)
        || is_shell(program)
        || class_of(words) != CommandClass::Other
    {
        return None;
    }
    let at = words
        .iter()
        .skip(1)
        .position(|w| !w.text().starts_with('-'))
        .map(|p| p + 1)?;
    let name = words[at].value.as_deref()?;
    if !known::looks_like_command(name) {
        return None;
    }
    let why = known::is_dangerous(name).then(|| {
        format!(
            "`{program}` is not a program the analysis knows, and its first argument `{name}` is a command it may run"
        )
    });
    Some((at, why))
}

/// Adds a command carried by an option value or a variable: a part like any other (allow rules must approve it
/// too, unless it came from text only deny rules look at), named by what carries it.
fn push_carried(
    c: Carried,
    deny_only: bool,
    analysis: &mut Analysis,
    embed: u32,
    elsewhere: bool,
    depth: u32,
) {
    let at = analysis.parts.len();
    match c.what {
        CarriedWhat::Unknown(_) => return,
        CarriedWhat::Script(text) => {
            let parsed = parse_script(&text);
            if let Some(error) = parsed.error
                && analysis.unanalysable.is_none()
            {
                analysis.unanalysable = Some(format!(
                    "{} gives a command that cannot be read ({error})",
                    c.by
                ));
            }
            for mut cmd in parsed.commands {
                cmd.depth += depth + 1;
                push_part(cmd, deny_only, analysis, embed, 0);
            }
        }
        CarriedWhat::Words(words) => {
            let cmd = SimpleCommand {
                words,
                depth: depth + 1,
                ..SimpleCommand::default()
            };
            push_part(cmd, deny_only, analysis, embed, 0);
        }
    }
    for part in &mut analysis.parts[at..] {
        part.carrier.get_or_insert_with(|| c.by.clone());
        part.elsewhere |= elsewhere || c.elsewhere;
    }
}

/// Adds the command a wrapper runs, noting whether it runs in another directory.
fn push_part_in(
    cmd: SimpleCommand,
    analysis: &mut Analysis,
    embed: u32,
    wrap: u32,
    elsewhere: bool,
) {
    let at = analysis.parts.len();
    push_part(cmd, true, analysis, embed, wrap);
    if elsewhere && let Some(part) = analysis.parts.get_mut(at) {
        part.elsewhere = true;
    }
}

/// For `git` with global options (`-C dir`, `-c k=v`, `--no-pager`, ...), the words from the subcommand on, so that
/// deny and ask rules such as `Bash(git push *)` see `git -C . push` too.
fn git_subcommand(argv: &[Word]) -> Option<&[Word]> {
    if argv.first().map(|w| base_name(w.text())) != Some("git") {
        return None;
    }
    let (at, _) = git_subcommand_at(argv)?;
    (at > 1).then(|| &argv[at..])
}

/// Analyses one simple command.
pub fn analyse_command(cmd: SimpleCommand, deny_only: bool) -> Part {
    let env: Vec<String> = cmd.assignments.iter().map(|a| a.name.clone()).collect();
    let env_safe = env.iter().all(|n| is_safe_variable(n));
    let words = &cmd.words;
    let start = if cmd.keyword {
        0
    } else {
        strip_for_allow(words)
    };
    let argv = &words[start..];
    let text = join(argv.iter().map(|w| w.text()));
    let raw = join(argv.iter().map(|w| w.raw.as_str()));
    let mut deny_texts = Vec::new();
    let push = |t: String, list: &mut Vec<String>| {
        if !t.is_empty() && t != text && !list.contains(&t) {
            list.push(t);
        }
    };
    if !cmd.keyword && !words.is_empty() {
        let (deny_start, _) = strip_for_deny(words);
        let deny_argv = &words[deny_start..];
        push(join(deny_argv.iter().map(|w| w.text())), &mut deny_texts);
        push(raw.clone(), &mut deny_texts);
        push(join(words.iter().map(|w| w.text())), &mut deny_texts);
        if let Some(first) = deny_argv.first() {
            let prog = first.text();
            let base = base_name(prog);
            if base != prog && !base.is_empty() {
                push(
                    join(std::iter::once(base).chain(deny_argv[1..].iter().map(|w| w.text()))),
                    &mut deny_texts,
                );
            }
        }
        let mut runner = deny_argv;
        for _ in 0..4 {
            let Some(at) = runner_inner(runner) else {
                break;
            };
            let inner = &runner[at..];
            let (s, _) = strip_for_deny(inner);
            runner = &inner[s..];
            push(join(runner.iter().map(|w| w.text())), &mut deny_texts);
            if let Some(first) = runner.first() {
                let base = base_name(first.text());
                if base != first.text() {
                    push(
                        join(std::iter::once(base).chain(runner[1..].iter().map(|w| w.text()))),
                        &mut deny_texts,
                    );
                }
            }
        }
        if let Some(rest) = git_subcommand(deny_argv) {
            push(
                join(std::iter::once("git").chain(rest.iter().map(|w| w.text()))),
                &mut deny_texts,
            );
        }
        if words.iter().any(|w| w.ifs) {
            let spaced = join(words[deny_start..].iter().map(|w| w.raw.as_str()))
                .replace("${IFS}", " ")
                .replace("$IFS", " ");
            push(spaced, &mut deny_texts);
        }
        if let Some((_, Some(inner))) = exec_wrapper(deny_argv) {
            let inner_words = &deny_argv[inner..];
            let (s, _) = strip_for_deny(inner_words);
            let end = inner_words[s..]
                .iter()
                .position(|w| matches!(w.text(), ";" | "+" | "\\;"))
                .map(|p| p + s)
                .unwrap_or(inner_words.len());
            push(
                join(inner_words[s..end].iter().map(|w| w.text())),
                &mut deny_texts,
            );
        }
    }
    let (exec, unanalysable, class) = if cmd.keyword || argv.is_empty() {
        (None, None, CommandClass::Neutral)
    } else {
        (
            exec_wrapper(argv).map(|(why, _)| why),
            classify::unanalysable(argv),
            class_of(argv),
        )
    };
    Part {
        start,
        env_safe,
        env,
        text,
        raw,
        deny_texts,
        exec_wrapper: exec,
        unanalysable,
        class,
        deny_only,
        elsewhere: false,
        carrier: None,
        cmd,
    }
}

/// What the transcript and the executor need to know about a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CommandSummary {
    /// Every part is search, read, list or neutral, nothing writes and everything could be analysed: safe to run
    /// concurrently and to collapse in the transcript.
    pub read_only: bool,
    pub has_search: bool,
    pub has_read: bool,
    pub has_list: bool,
}

/// Classifies a whole command line (docs/permissions.md §3).
pub fn summary(command: &str) -> CommandSummary {
    let analysis = analyse(command);
    let has = |c: CommandClass| analysis.parts.iter().any(|p| p.class == c);
    CommandSummary {
        read_only: !analysis.parts.is_empty() && analysis.is_read_only(),
        has_search: has(CommandClass::Search),
        has_read: has(CommandClass::Read),
        has_list: has(CommandClass::List),
    }
}

//! One table of options per program (and per git subcommand): which options take a value, and what the value is to
//! the program — a file it writes or reads, a command it runs, code it loads, a `key=value` setting (`ssh -o`,
//! `git -c`), or only data. The files a command touches and the commands its options carry are both read from it,
//! so the two never disagree about where an option's value is. Each row was checked against the real program
//! (tests/tables/carriers.txt runs them). Long options match by unambiguous prefix, as GNU getopt and git read them.

use super::word::Word;

/// How a program runs a command given in an option's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Takes {
    /// Shell text, run with `sh -c`.
    Script,
    /// A program and its arguments, split on blanks by the program itself.
    Program,
}

/// What an option's value is to the program.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// A file (or folder) the program writes.
    Write,
    /// A file the program reads.
    Read,
    /// A command the program runs.
    Runs(Takes),
    /// A command the program runs, given only attached (`-O[PAGER]`, `--open-files-in-pager[=PAGER]`); without a
    /// value the program uses its default.
    RunsAttached(Takes),
    /// Code or configuration that can run anything (`ssh -F`, `vim -c`): it cannot be analysed.
    Code,
    /// The same, given only attached (`git --exec-path=DIR`; alone, `--exec-path` prints the folder).
    CodeAttached,
    /// `ssh -o Key=Value`: what the value is depends on the key.
    SshOption,
    /// `git -c key=value` (and `clone --config`): what the value is depends on the key.
    GitConfig,
    /// `git --config-env=key=VARIABLE`: the value comes from the environment.
    GitConfigEnv,
    /// `tar --checkpoint-action=ACTION`: `exec=COMMAND` runs a command.
    TarCheckpoint,
    /// The suffix of backup files (`cp -S SUFFIX`): each file written gets a copy at its name plus the suffix.
    BackupSuffix,
    /// A flag (no value) after which the program writes files the analysis cannot name (`patch --unsafe-paths`).
    UnknownWrites,
    /// A value that is only data (a count, a pattern, a format).
    Data,
}

impl Role {
    /// Whether the option takes a value (the next word when none is attached).
    pub fn takes_value(self) -> bool {
        !matches!(
            self,
            Role::UnknownWrites | Role::RunsAttached(_) | Role::CodeAttached
        )
    }
}

/// One option: its short letter, its long name (empty when none) and what its value is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Opt {
    pub short: Option<char>,
    pub long: &'static str,
    pub role: Role,
}

const fn o(short: char, long: &'static str, role: Role) -> Opt {
    Opt {
        short: Some(short),
        long,
        role,
    }
}

const fn l(long: &'static str, role: Role) -> Opt {
    Opt {
        short: None,
        long,
        role,
    }
}

use Role::{
    BackupSuffix, Code, Data, GitConfig, GitConfigEnv, Read, Runs, RunsAttached, SshOption,
    TarCheckpoint, UnknownWrites, Write,
};
use Takes::{Program, Script};

const GIT: &[Opt] = &[
    o('c', "", GitConfig),
    l("config-env", GitConfigEnv),
    o('C', "", Data),
    l("git-dir", Data),
    l("work-tree", Data),
    l("namespace", Data),
    l("super-prefix", Data),
    l("exec-path", Role::CodeAttached),
];
const GIT_REBASE: &[Opt] = &[
    o('x', "exec", Runs(Script)),
    l("onto", Data),
    o('s', "strategy", Data),
    o('X', "strategy-option", Data),
    l("output", Write),
];
const GIT_GREP: &[Opt] = &[
    o('O', "open-files-in-pager", RunsAttached(Script)),
    o('e', "", Data),
    o('f', "", Read),
    o('A', "after-context", Data),
    o('B', "before-context", Data),
    o('C', "context", Data),
    o('m', "max-count", Data),
    l("max-depth", Data),
    l("threads", Data),
];
const GIT_DIFFTOOL: &[Opt] = &[o('x', "extcmd", Runs(Script)), o('t', "tool", Data)];
const GIT_FILTER_BRANCH: &[Opt] = &[
    l("tree-filter", Runs(Script)),
    l("index-filter", Runs(Script)),
    l("msg-filter", Runs(Script)),
    l("env-filter", Runs(Script)),
    l("commit-filter", Runs(Script)),
    l("parent-filter", Runs(Script)),
    l("tag-name-filter", Runs(Script)),
    o('d', "", Write),
];
const GIT_CLONE: &[Opt] = &[
    o('u', "upload-pack", Runs(Script)),
    o('c', "config", GitConfig),
    l("template", Code),
    o('o', "origin", Data),
    o('b', "branch", Data),
    l("depth", Data),
    l("reference", Data),
    l("separate-git-dir", Write),
];
const GIT_FETCH: &[Opt] = &[l("upload-pack", Runs(Script)), l("depth", Data)];
const GIT_PUSH: &[Opt] = &[
    l("receive-pack", Runs(Script)),
    l("exec", Runs(Script)),
    o('o', "push-option", Data),
];
const GIT_ARCHIVE: &[Opt] = &[
    l("exec", Runs(Script)),
    o('o', "output", Write),
    l("remote", Data),
    l("prefix", Data),
    l("format", Data),
];
const GIT_SEND_EMAIL: &[Opt] = &[l("sendmail-cmd", Runs(Script)), l("smtp-server", Data)];
const GIT_FORMAT_PATCH: &[Opt] = &[o('o', "output-directory", Write), l("output", Write)];
const GIT_CONFIG: &[Opt] = &[o('f', "file", Write), l("blob", Data)];
/// Options every other git subcommand may take.
const GIT_ANY: &[Opt] = &[l("output", Write)];

const TAR: &[Opt] = &[
    o('I', "use-compress-program", Runs(Program)),
    l("to-command", Runs(Script)),
    l("checkpoint-action", TarCheckpoint),
    o('F', "info-script", Runs(Script)),
    l("new-volume-script", Runs(Script)),
    l("rsh-command", Runs(Program)),
    o('C', "directory", Write),
    o('f', "file", Write),
    o('T', "files-from", Read),
    o('X', "exclude-from", Read),
    o('g', "listed-incremental", Write),
    l("index-file", Write),
    o('b', "blocking-factor", Data),
    o('H', "format", Data),
    o('K', "starting-file", Data),
    o('L', "tape-length", Data),
    o('N', "newer", Data),
    o('V', "label", Data),
    l("exclude", Data),
    l("transform", Data),
    l("owner", Data),
    l("group", Data),
    l("mode", Data),
    l("mtime", Data),
    l("checkpoint", Data),
];
const RSYNC: &[Opt] = &[
    o('e', "rsh", Runs(Program)),
    l("rsync-path", Runs(Script)),
    l("log-file", Write),
    l("write-batch", Write),
    l("only-write-batch", Write),
    l("backup-dir", Write),
    o('T', "temp-dir", Write),
    l("partial-dir", Write),
    l("files-from", Read),
    l("exclude-from", Read),
    l("include-from", Read),
    l("password-file", Read),
    l("read-batch", Read),
    o('f', "filter", Data),
    l("exclude", Data),
    l("include", Data),
    o('B', "block-size", Data),
    l("port", Data),
    l("out-format", Data),
    l("log-file-format", Data),
    o('M', "remote-option", Data),
    l("suffix", Data),
    l("chmod", Data),
    l("timeout", Data),
    l("bwlimit", Data),
];
const SSH: &[Opt] = &[
    o('o', "", SshOption),
    o('F', "", Code),
    o('E', "", Write),
    o('S', "", Write),
    o('i', "", Read),
    o('b', "", Data),
    o('c', "", Data),
    o('D', "", Data),
    o('e', "", Data),
    o('I', "", Code),
    o('J', "", Data),
    o('L', "", Data),
    o('l', "", Data),
    o('m', "", Data),
    o('O', "", Data),
    o('p', "", Data),
    o('Q', "", Data),
    o('R', "", Data),
    o('W', "", Data),
    o('w', "", Data),
    o('B', "", Data),
];
const SCP: &[Opt] = &[
    o('o', "", SshOption),
    o('S', "", Runs(Program)),
    o('F', "", Code),
    o('i', "", Read),
    o('c', "", Data),
    o('D', "", Runs(Program)),
    o('J', "", Data),
    o('l', "", Data),
    o('P', "", Data),
    o('X', "", Data),
];
const SFTP: &[Opt] = &[
    o('o', "", SshOption),
    o('S', "", Runs(Program)),
    o('D', "", Runs(Program)),
    o('F', "", Code),
    o('b', "", Code),
    o('i', "", Read),
    o('B', "", Data),
    o('c', "", Data),
    o('J', "", Data),
    o('l', "", Data),
    o('P', "", Data),
    o('R', "", Data),
    o('s', "", Data),
    o('X', "", Data),
];
const LESS: &[Opt] = &[
    o('o', "log-file", Write),
    o('O', "LOG-FILE", Write),
    o('k', "lesskey-file", Read),
    o('T', "tag-file", Read),
    o('b', "buffers", Data),
    o('h', "max-back-scroll", Data),
    o('j', "jump-target", Data),
    o('p', "pattern", Data),
    o('P', "prompt", Data),
    o('t', "tag", Data),
    o('x', "tabs", Data),
    o('y', "max-forw-scroll", Data),
    o('z', "window", Data),
    o('#', "shift", Data),
];
const MAN: &[Opt] = &[
    o('P', "pager", Runs(Script)),
    o('H', "html", RunsAttached(Script)),
    o('C', "config-file", Code),
    o('M', "manpath", Data),
    o('S', "sections", Data),
    o('L', "locale", Data),
    o('m', "systems", Data),
    o('p', "preprocessor", Data),
    o('E', "encoding", Data),
    o('R', "recode", Data),
    o('e', "extension", Data),
    o('r', "prompt", Data),
];
const PATCH: &[Opt] = &[
    o('d', "directory", Write),
    o('o', "output", Write),
    o('i', "input", Read),
    o('r', "reject-file", Write),
    o('B', "prefix", Write),
    o('Y', "basename-prefix", Write),
    l("unsafe-paths", UnknownWrites),
    o('z', "suffix", Data),
    o('p', "strip", Data),
    o('D', "ifdef", Data),
    o('F', "fuzz", Data),
    o('V', "version-control", Data),
];
const SORT: &[Opt] = &[
    o('o', "output", Write),
    o('T', "temporary-directory", Write),
    l("files0-from", Read),
    l("random-source", Read),
    l("compress-program", Runs(Program)),
    o('k', "key", Data),
    o('t', "field-separator", Data),
    o('S', "buffer-size", Data),
    l("parallel", Data),
    l("batch-size", Data),
];
const COPY: &[Opt] = &[
    o('t', "target-directory", Write),
    o('S', "suffix", BackupSuffix),
];
const INSTALL: &[Opt] = &[
    o('t', "target-directory", Write),
    o('S', "suffix", BackupSuffix),
    o('m', "mode", Data),
    o('o', "owner", Data),
    o('g', "group", Data),
];
const SPLIT: &[Opt] = &[
    l("filter", Runs(Script)),
    o('a', "suffix-length", Data),
    o('b', "bytes", Data),
    o('C', "line-bytes", Data),
    o('l', "lines", Data),
    o('n', "number", Data),
    o('t', "separator", Data),
    l("additional-suffix", Data),
];
const CSPLIT: &[Opt] = &[
    o('f', "prefix", Write),
    o('b', "suffix-format", Data),
    o('n', "digits", Data),
];
const ZIP: &[Opt] = &[
    l("unzip-command", Runs(Script)),
    o('O', "output-file", Write),
    o('b', "temp-path", Write),
    o('n', "suffixes", Data),
    o('P', "password", Data),
];
const CURL: &[Opt] = &[
    o('o', "output", Write),
    o('c', "cookie-jar", Write),
    o('D', "dump-header", Write),
    o('T', "upload-file", Read),
    o('K', "config", Read),
    l("trace", Write),
    l("trace-ascii", Write),
    l("stderr", Write),
    l("libcurl", Write),
    l("etag-save", Write),
    o('d', "data", Data),
    o('H', "header", Data),
    o('X', "request", Data),
    o('u', "user", Data),
    o('A', "user-agent", Data),
    o('e', "referer", Data),
    o('x', "proxy", Data),
    o('F', "form", Data),
    o('m', "max-time", Data),
    o('w', "write-out", Data),
    o('b', "cookie", Data),
    o('r', "range", Data),
    o('E', "cert", Data),
];
const WGET: &[Opt] = &[
    o('O', "output-document", Write),
    o('o', "output-file", Write),
    o('a', "append-output", Write),
    o('P', "directory-prefix", Write),
    o('i', "input-file", Read),
];
const GREP: &[Opt] = &[
    o('f', "file", Read),
    o('e', "regexp", Data),
    o('A', "after-context", Data),
    o('B', "before-context", Data),
    o('C', "context", Data),
    o('m', "max-count", Data),
    o('d', "directories", Data),
    o('D', "devices", Data),
    l("include", Data),
    l("exclude", Data),
    l("exclude-dir", Data),
    l("label", Data),
    l("color", Data),
];
const RG: &[Opt] = &[
    l("pre", Runs(Program)),
    l("pre-glob", Data),
    o('f', "file", Read),
    o('e', "regexp", Data),
    o('g', "glob", Data),
    o('t', "type", Data),
    o('T', "type-not", Data),
    o('A', "after-context", Data),
    o('B', "before-context", Data),
    o('C', "context", Data),
    o('m', "max-count", Data),
    o('M', "max-columns", Data),
    o('j', "threads", Data),
    o('r', "replace", Data),
    o('E', "encoding", Data),
    o('d', "max-depth", Data),
    l("iglob", Data),
    l("type-add", Data),
];
const STRACE: &[Opt] = &[
    o('o', "output", Write),
    o('e', "", Data),
    o('p', "", Data),
    o('s', "", Data),
    o('u', "", Data),
    o('a', "", Data),
    o('E', "", Data),
    o('I', "", Data),
    o('O', "", Data),
    o('P', "", Data),
    o('S', "", Data),
    o('U', "", Data),
    o('X', "", Data),
];
const SCRIPT: &[Opt] = &[
    o('c', "command", Runs(Script)),
    o('O', "log-out", Write),
    o('I', "log-in", Write),
    o('B', "log-io", Write),
    o('T', "log-timing", Write),
    o('E', "echo", Data),
    o('m', "logging-format", Data),
    l("output-limit", Data),
];
const MYSQL: &[Opt] = &[l("pager", Runs(Script)), l("tee", Write)];
const NPM: &[Opt] = &[l("script-shell", Runs(Program))];
const GCC: &[Opt] = &[o('o', "", Write)];
const JQ: &[Opt] = &[o('f', "from-file", Read)];
const DIFF: &[Opt] = &[l("from-file", Read), l("to-file", Read)];
const SED: &[Opt] = &[o('f', "file", Read)];
const OUTPUT: &[Opt] = &[o('o', "output", Write)];
const UNZIP: &[Opt] = &[o('d', "", Write)];

/// How a program reads its short options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// `-abc` is three flags; a value letter takes the rest of the word or the next word.
    Clusters,
    /// Every `-word` is one option (`gcc -fno-omit-frame-pointer`); only a table letter's own prefix takes a value
    /// (`-ofile`).
    Words,
}

/// The options of `program` (`git SUB` for a git subcommand), and how its short options are read.
pub fn table(program: &str) -> (&'static [Opt], Style) {
    let t: &'static [Opt] = match program {
        "git" => GIT,
        "git rebase" => GIT_REBASE,
        "git grep" => GIT_GREP,
        "git difftool" => GIT_DIFFTOOL,
        "git filter-branch" => GIT_FILTER_BRANCH,
        "git clone" => GIT_CLONE,
        "git fetch" | "git pull" | "git ls-remote" => GIT_FETCH,
        "git push" => GIT_PUSH,
        "git archive" => GIT_ARCHIVE,
        "git send-email" => GIT_SEND_EMAIL,
        "git format-patch" => GIT_FORMAT_PATCH,
        "git config" => GIT_CONFIG,
        p if p.starts_with("git ") => GIT_ANY,
        "tar" | "gtar" => TAR,
        "rsync" => RSYNC,
        "ssh" => SSH,
        "scp" => SCP,
        "sftp" => SFTP,
        "less" => LESS,
        "man" => MAN,
        "patch" => PATCH,
        "sort" => SORT,
        "cp" | "mv" | "ln" => COPY,
        "install" => INSTALL,
        "split" => SPLIT,
        "csplit" => CSPLIT,
        "zip" => ZIP,
        "curl" => CURL,
        "wget" => WGET,
        "grep" | "egrep" | "fgrep" => GREP,
        "rg" => RG,
        "strace" | "ltrace" => STRACE,
        "script" => SCRIPT,
        "mysql" | "mariadb" => MYSQL,
        "npm" | "pnpm" | "yarn" => NPM,
        "jq" => JQ,
        "diff" => DIFF,
        "sed" => SED,
        "uniq" | "shuf" | "base64" | "xxd" => OUTPUT,
        "unzip" => UNZIP,
        "gcc" | "cc" | "clang" | "g++" | "c++" | "clang++" => return (GCC, Style::Words),
        _ => &[],
    };
    (t, Style::Clusters)
}

/// Whether `name` (the text after `--`, before any `=`) abbreviates `full`.
pub fn abbreviates(name: &str, full: &str) -> bool {
    !name.is_empty() && !full.is_empty() && full.starts_with(name)
}

/// The option among `table` a `--name[=value]` word names: given whole, or abbreviated so that one option fits.
fn long_option(name: &str, table: &'static [Opt]) -> Option<&'static Opt> {
    if let Some(exact) = table.iter().find(|o| o.long == name) {
        return Some(exact);
    }
    let mut fits = table.iter().filter(|o| abbreviates(name, o.long));
    let first = fits.next()?;
    fits.next().is_none().then_some(first)
}

/// One option found in a command's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub opt: Opt,
    /// Index of the word holding the option.
    pub at: usize,
    /// The option's value as a word (attached, or the next word), if it has one.
    pub value: Option<Word>,
    /// Index of the value when it is a word of its own.
    pub value_at: Option<usize>,
}

/// A word for text cut from `word` (an attached value): known only when the whole word is.
fn part_of(word: &Word, text: &str) -> Word {
    if word.value.is_some() {
        Word {
            glob: word.glob,
            tilde: text.starts_with('~') && word.tilde,
            ..Word::literal(text)
        }
    } else {
        Word {
            raw: word.raw.clone(),
            ..Word::default()
        }
    }
}

/// The options of `table` in `words[from..to]` (up to `--`), each with its value. Words that are not options of
/// the table are skipped (an unknown option is read as a flag).
pub fn scan(
    table: &'static [Opt],
    style: Style,
    words: &[Word],
    from: usize,
    to: usize,
) -> Vec<Found> {
    let mut out = Vec::new();
    if table.is_empty() {
        return out;
    }
    let to = to.min(words.len());
    let mut i = from;
    while i < to {
        let word = &words[i];
        let t = word.text();
        if t == "--" {
            break;
        }
        let next = |out: &mut Vec<Found>, opt: Opt, i: &mut usize| {
            let value = words.get(*i + 1).filter(|_| *i + 1 < to).cloned();
            let value_at = value.is_some().then_some(*i + 1);
            out.push(Found {
                opt,
                at: *i,
                value,
                value_at,
            });
            if value_at.is_some() {
                *i += 1;
            }
        };
        if let Some(long) = t.strip_prefix("--").filter(|l| !l.is_empty()) {
            let (name, attached) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (long, None),
            };
            if let Some(opt) = long_option(name, table) {
                match attached {
                    Some(v) => out.push(Found {
                        opt: *opt,
                        at: i,
                        value: Some(part_of(word, v)),
                        value_at: None,
                    }),
                    None if opt.role.takes_value() => next(&mut out, *opt, &mut i),
                    None => out.push(Found {
                        opt: *opt,
                        at: i,
                        value: None,
                        value_at: None,
                    }),
                }
            }
        } else if let Some(cluster) = t.strip_prefix('-').filter(|c| !c.is_empty()) {
            let letters: Vec<(usize, char)> = match style {
                Style::Clusters => cluster.char_indices().collect(),
                Style::Words => cluster.char_indices().take(1).collect(),
            };
            for (at, c) in letters {
                let Some(opt) = table.iter().find(|o| o.short == Some(c)) else {
                    continue;
                };
                let rest = &cluster[at + c.len_utf8()..];
                if !rest.is_empty() && !matches!(opt.role, Role::UnknownWrites) {
                    out.push(Found {
                        opt: *opt,
                        at: i,
                        value: Some(part_of(word, rest)),
                        value_at: None,
                    });
                } else if opt.role.takes_value() {
                    next(&mut out, *opt, &mut i);
                } else {
                    out.push(Found {
                        opt: *opt,
                        at: i,
                        value: None,
                        value_at: None,
                    });
                }
                break;
            }
        }
        i += 1;
    }
    out
}

/// Where the words of a git command's subcommand start (after its global options), and the subcommand.
pub fn git_subcommand_at(words: &[Word]) -> Option<(usize, &str)> {
    let mut i = 1;
    while let Some(w) = words.get(i) {
        let t = w.text();
        if matches!(
            t,
            "-C" | "-c"
                | "--git-dir"
                | "--work-tree"
                | "--namespace"
                | "--config-env"
                | "--super-prefix"
        ) {
            i += 2;
        } else if t.starts_with('-') {
            i += 1;
        } else {
            return Some((i, t));
        }
    }
    None
}

/// Every option of `words` (the program first) that the tables know, git's global options and its subcommand's
/// included.
pub fn options_of(program: &str, words: &[Word]) -> Vec<Found> {
    if program != "git" {
        let (t, style) = table(program);
        return scan(t, style, words, 1, words.len());
    }
    let sub = git_subcommand_at(words);
    let end = sub.map_or(words.len(), |(at, _)| at);
    let mut out = scan(GIT, Style::Clusters, words, 1, end);
    if let Some((at, name)) = sub {
        let (t, style) = table(&format!("git {name}"));
        out.extend(scan(t, style, words, at + 1, words.len()));
    }
    out
}

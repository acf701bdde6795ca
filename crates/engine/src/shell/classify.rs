//! What a command is: its class for the transcript, whether it is a built-in read-only command, whether it is an
//! exec wrapper no prefix rule may approve, which of its arguments are files it reads or writes, and what cannot
//! be analysed at all.

use super::interpreters::interpreter_code;
use super::option_table::{Role as OptionRole, options_of};
use super::options::{abbreviates, option_files, runs_code};
use super::word::Word;
pub use super::word::base_name;

/// How the transcript and the executor treat a command (docs/permissions.md §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CommandClass {
    Search,
    Read,
    List,
    Neutral,
    Other,
}

fn v(words: &[Word], i: usize) -> &str {
    words.get(i).map(|w| w.text()).unwrap_or("")
}

/// The class of a command by its program.
pub fn class_of(words: &[Word]) -> CommandClass {
    match base_name(v(words, 0)) {
        "find" | "grep" | "rg" | "ag" | "ack" | "locate" | "which" | "egrep" | "fgrep" => {
            CommandClass::Search
        }
        "cat" | "head" | "tail" | "wc" | "stat" | "jq" | "awk" | "cut" => CommandClass::Read,
        "ls" | "tree" | "du" => CommandClass::List,
        "echo" | "printf" | "true" | "false" | ":" | "[[" | "[" | "test" => CommandClass::Neutral,
        _ => CommandClass::Other,
    }
}

const SHELLS: &[&str] = &[
    "sh", "bash", "zsh", "dash", "ksh", "fish", "ash", "mksh", "csh", "tcsh",
];

/// Whether the program is a shell interpreter.
pub fn is_shell(program: &str) -> bool {
    SHELLS.contains(&base_name(program))
}

/// Why a command cannot be analysed, if it cannot: `eval`, `source`, `exec`, `trap`, a shell given a `-c` string or
/// reading its standard input, a program name that is not a fixed word.
pub fn unanalysable(words: &[Word]) -> Option<String> {
    let first = words.first()?;
    let Some(program) = first.value.as_deref().filter(|_| !first.glob) else {
        return Some(format!(
            "the program name `{}` is only known when the command runs",
            first.raw
        ));
    };
    match program {
        "eval" => return Some("`eval` runs text as a command".into()),
        "source" | "." => return Some(format!("`{program}` runs a script in this shell")),
        "exec" if words.len() > 1 => return Some("`exec` replaces the shell".into()),
        "trap" => return Some("`trap` runs text as a command later".into()),
        "alias" | "enable" | "hash" | "unalias" => {
            return Some(format!("`{program}` changes what commands mean"));
        }
        "mapfile" | "readarray" | "fc" | "complete" | "compgen" | "bind" if words.len() > 1 => {
            return Some(format!("`{program}` can run text as a command"));
        }
        _ => {}
    }
    if let Some(why) = runs_code(base_name(program), words).or_else(|| interpreter_code(words)) {
        return Some(why);
    }
    if is_shell(program) {
        let mut script = false;
        for w in &words[1..] {
            let t = w.text();
            if t == "-c" || (t.starts_with('-') && !t.starts_with("--") && t.contains('c')) {
                return Some(format!("`{program} -c` runs a string as a command"));
            }
            if t == "-s" || t == "-" {
                break;
            }
            if !t.starts_with('-') && !t.starts_with('+') {
                let from_stream =
                    w.value.is_none() || t.starts_with("/dev/") || t.starts_with("/proc/");
                if from_stream {
                    return Some(format!(
                        "`{program}` reads its script from `{}`, only known when it runs",
                        w.raw
                    ));
                }
                script = true;
                break;
            }
        }
        if !script {
            return Some(format!(
                "`{program}` reads commands from its standard input"
            ));
        }
    }
    None
}

/// Strings a command runs as shell text (`sh -c STRING`, `eval ARGS`, `trap STRING`), for deny and ask rules.
pub fn embedded_scripts(words: &[Word]) -> Vec<String> {
    let program = base_name(v(words, 0));
    match program {
        "eval" => vec![
            words[1..]
                .iter()
                .map(|w| w.text().to_string())
                .collect::<Vec<_>>()
                .join(" "),
        ],
        "trap" => words
            .get(1)
            .map(|w| vec![w.text().to_string()])
            .unwrap_or_default(),
        _ => {
            let mut out = Vec::new();
            for (i, w) in words.iter().enumerate() {
                if (is_shell(w.text()) || w.text() == "su")
                    && let Some(pos) = words[i + 1..].iter().position(|x| {
                        let t = x.text();
                        t == "-c"
                            || (t.starts_with('-') && !t.starts_with("--") && t.ends_with('c'))
                    })
                    && let Some(script) = shell_string(&words[i + 1 + pos + 1..])
                {
                    out.push(script.text().to_string());
                }
            }
            if program == "env"
                && let Some(at) = words
                    .iter()
                    .position(|w| matches!(w.text(), "-S" | "--split-string"))
                && let Some(script) = words.get(at + 1)
            {
                out.push(script.text().to_string());
            }
            if program == "watch" {
                // The command is every word after the options (and the interval `-n` takes).
                let mut skip_next = false;
                let mut text = Vec::new();
                for w in &words[1..] {
                    let t = w.text();
                    if skip_next {
                        skip_next = false;
                    } else if text.is_empty() && t.starts_with('-') {
                        skip_next = matches!(t, "-n" | "--interval" | "--shotsdir");
                    } else {
                        text.push(t.to_string());
                    }
                }
                out.push(text.join(" "));
            }
            out
        }
    }
}

/// The command string of a shell's `-c`: its first operand, after any further options (`bash -c -x -- 'cmd'`).
fn shell_string(after_c: &[Word]) -> Option<&Word> {
    let mut i = 0;
    while let Some(w) = after_c.get(i) {
        let t = w.text();
        if t == "--" {
            return after_c.get(i + 1);
        }
        if matches!(t, "-o" | "+o" | "-O" | "+O") {
            i += 2;
        } else if (t.starts_with('-') || t.starts_with('+')) && t.len() > 1 {
            i += 1;
        } else {
            return Some(w);
        }
    }
    None
}

/// Where the command run by an environment runner starts (`env`, `sudo`, `doas`, `busybox`, `direnv exec`, `exec`,
/// `coproc`, `strace`). Allow rules do not look past these; deny and ask rules do.
pub fn runner_inner(words: &[Word]) -> Option<usize> {
    let program = base_name(v(words, 0));
    let takes_value: &[&str] = match program {
        "env" => &["-u", "--unset", "-C", "--chdir", "-S", "--split-string"],
        "sudo" | "doas" => &["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T"],
        "strace" | "ltrace" => &["-o", "-e", "-p", "-s", "-u"],
        "exec" => &["-a"],
        "busybox" | "coproc" => &[],
        "direnv" if v(words, 1) == "exec" => {
            return (words.len() > 3).then_some(3);
        }
        _ => return None,
    };
    let mut i = 1;
    while i < words.len() {
        let t = v(words, i);
        if t == "--" {
            i += 1;
            break;
        }
        if takes_value.contains(&t) {
            i += 2;
        } else if t.starts_with('-') || (program == "env" && t.contains('=')) {
            i += 1;
        } else {
            break;
        }
    }
    (i < words.len()).then_some(i)
}

/// Wrappers that run the command given after their options (output-collecting, pseudo-terminal, scheduling,
/// environment and sandbox wrappers): deny and ask rules see the command they run; no prefix rule approves them.
const RUNNERS: &[&str] = &[
    "unbuffer",
    "chronic",
    "ifne",
    "zrun",
    "eatmydata",
    "nocache",
    "fakechroot",
    "winpty",
    "tsocks",
    "lckdo",
    "faketime",
    "gosu",
    "su-exec",
    "setarch",
    "linux32",
    "linux64",
    "runcon",
    "numactl",
    "cgexec",
    "setpriv",
    "prlimit",
    "valgrind",
    "firejail",
    "proxychains",
    "proxychains4",
    "torsocks",
    "xvfb-run",
    "dbus-run-session",
    "dbus-launch",
    "ssh-agent",
    "rlwrap",
    "caffeinate",
    "tini",
    "dumb-init",
    "systemd-run",
    "pee",
    "mispipe",
    "hyperfine",
    "sg",
    "entr",
    "script",
    "catchsegv",
    "fakeroot",
    "strace",
    "ltrace",
];

/// Whether a command runs another command in a way no prefix rule may approve, and the index where that inner
/// command starts (for deny and ask rules), if it can be found.
pub fn exec_wrapper(words: &[Word]) -> Option<(&'static str, Option<usize>)> {
    let program = base_name(v(words, 0));
    match program {
        "watch" | "setsid" | "ionice" | "flock" | "nsenter" | "chroot" | "unshare" | "taskset"
        | "chrt" | "parallel" => {
            let mut i = 1;
            while i < words.len() && v(words, i).starts_with('-') {
                let flag = v(words, i);
                let takes_value = matches!(
                    (program, flag),
                    ("watch", "-n" | "-d" | "--interval" | "-q")
                        | ("ionice", "-c" | "-n" | "-p" | "-P" | "-u")
                        | ("flock", "-w" | "--timeout" | "-E" | "--conflict-exit-code")
                        | ("taskset", "-p")
                );
                i += if takes_value { 2 } else { 1 };
            }
            if program == "flock" {
                i += 1;
            }
            if program == "taskset" {
                i += 1;
            }
            Some(("runs another command", (i < words.len()).then_some(i)))
        }
        "xargs" if v(words, 1).starts_with('-') => {
            let mut i = 1;
            while i < words.len() && v(words, i).starts_with('-') {
                let flag = v(words, i);
                let takes_value = matches!(
                    flag,
                    "-I" | "-L"
                        | "-n"
                        | "-P"
                        | "-s"
                        | "-d"
                        | "-E"
                        | "-a"
                        | "--arg-file"
                        | "--delimiter"
                        | "--max-args"
                        | "--max-procs"
                        | "--max-lines"
                        | "--max-chars"
                        | "--eof"
                );
                i += if takes_value { 2 } else { 1 };
            }
            Some((
                "xargs with flags runs another command",
                (i < words.len()).then_some(i),
            ))
        }
        "find" => {
            let at = words.iter().position(|w| {
                matches!(
                    w.text(),
                    "-exec"
                        | "-execdir"
                        | "-ok"
                        | "-okdir"
                        | "-delete"
                        | "-fprint"
                        | "-fprint0"
                        | "-fprintf"
                        | "-fls"
                )
            })?;
            let inner = matches!(v(words, at), "-exec" | "-execdir" | "-ok" | "-okdir")
                .then_some(at + 1)
                .filter(|i| *i < words.len());
            Some(("find runs commands or deletes files", inner))
        }
        "git" => {
            let mut i = 1;
            while i < words.len() {
                let t = v(words, i);
                if t == "-c" || t.starts_with("--exec-path") || t.starts_with("--config-env") {
                    return Some(("git -c / --exec-path can run any command", None));
                }
                if t == "-C" || t == "--git-dir" || t == "--work-tree" || t == "--namespace" {
                    i += 2;
                } else if t.starts_with('-') {
                    i += 1;
                } else {
                    break;
                }
            }
            None
        }
        "sed" => sed_is_dangerous(words).then_some(("sed can run commands or write files", None)),
        p if RUNNERS.contains(&p) => Some(("runs the command given after its options", None)),
        "rg" if words.iter().any(|w| w.text().starts_with("--pre")) => {
            Some(("rg --pre runs a command on each file", None))
        }
        "sort"
            if words
                .iter()
                .any(|w| w.text().starts_with("--compress-program")) =>
        {
            Some(("sort --compress-program runs a command", None))
        }
        _ => None,
    }
}

/// The arguments of `sed`: its scripts, its files, whether it edits in place.
#[derive(Debug, Clone, Default)]
pub struct SedArgs {
    pub scripts: Vec<String>,
    /// Indexes of file arguments.
    pub files: Vec<usize>,
    pub in_place: bool,
    /// A script comes from a file (`-f`): it cannot be checked.
    pub script_file: bool,
}

/// The long options of GNU sed.
const SED_LONG: &[&str] = &[
    "expression",
    "file",
    "in-place",
    "line-length",
    "null-data",
    "zero-terminated",
    "quiet",
    "silent",
    "regexp-extended",
    "separate",
    "sandbox",
    "debug",
    "posix",
    "follow-symlinks",
    "unbuffered",
    "binary",
    "help",
    "version",
];

/// Parses the arguments of a `sed` command.
pub fn sed_args(words: &[Word]) -> SedArgs {
    let mut out = SedArgs::default();
    let mut explicit = false;
    let mut i = 1;
    let mut positional = Vec::new();
    while i < words.len() {
        let t = v(words, i);
        // GNU sed reads long options by unambiguous prefix: `--ex=SCRIPT` is `--expression=SCRIPT`.
        if let Some(long) = t.strip_prefix("--").filter(|l| !l.is_empty()) {
            let (name, value) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (long, None),
            };
            let matches: Vec<&str> = SED_LONG
                .iter()
                .copied()
                .filter(|o| *o == name || abbreviates(name, o))
                .collect();
            let option = match matches.as_slice() {
                [one] => *one,
                _ => SED_LONG.iter().copied().find(|o| *o == name).unwrap_or(""),
            };
            match option {
                "expression" => {
                    match value {
                        Some(v) => out.scripts.push(v.to_string()),
                        None => {
                            out.scripts.push(v(words, i + 1).to_string());
                            i += 1;
                        }
                    }
                    explicit = true;
                }
                "file" => {
                    out.script_file = true;
                    explicit = true;
                    if value.is_none() {
                        i += 1;
                    }
                }
                "in-place" => out.in_place = true,
                "line-length" if value.is_none() => i += 1,
                "" => {
                    // Not understood: the script cannot be checked.
                    out.script_file = true;
                }
                _ => {}
            }
            i += 1;
            continue;
        }
        if t == "-e" || t == "--expression" {
            out.scripts.push(v(words, i + 1).to_string());
            explicit = true;
            i += 2;
            continue;
        }
        if let Some(s) = t.strip_prefix("--expression=") {
            out.scripts.push(s.to_string());
            explicit = true;
        } else if t == "-f" || t == "--file" || t.starts_with("--file=") {
            out.script_file = true;
            explicit = true;
            if t == "-f" || t == "--file" {
                i += 1;
            }
        } else if t == "-i"
            || t.starts_with("-i")
            || t.strip_prefix("--")
                .is_some_and(|n| abbreviates(n.split('=').next().unwrap_or(n), "in-place"))
        {
            out.in_place = true;
        } else if t == "-l" || t == "--line-length" {
            i += 1;
        } else if t.starts_with('-') && t.len() > 1 && !t.starts_with("--") {
            // Combined short flags such as -ne or -ni.
            let flags = &t[1..];
            if flags.contains('i') {
                out.in_place = true;
            }
            if let Some(pos) = flags.find('e') {
                explicit = true;
                let rest = &flags[pos + 1..];
                if rest.is_empty() {
                    out.scripts.push(v(words, i + 1).to_string());
                    i += 1;
                } else {
                    out.scripts.push(rest.to_string());
                }
            }
            if flags.contains('f') {
                out.script_file = true;
                explicit = true;
            }
        } else if !t.starts_with('-') || t == "-" {
            positional.push(i);
        }
        i += 1;
    }
    let mut iter = positional.into_iter();
    if !explicit && let Some(first) = iter.next() {
        out.scripts.push(v(words, first).to_string());
    }
    out.files = iter.collect();
    out
}

fn sed_is_dangerous(words: &[Word]) -> bool {
    let args = sed_args(words);
    args.script_file || args.scripts.iter().any(|s| sed_script_is_dangerous(s))
}

/// Whether a sed script can run commands (`e`, the `e` flag of `s`) or write or read files by name (`w`, `W`,
/// `r`, `R`, the `w` flag). Anything the scanner does not understand counts as dangerous.
pub fn sed_script_is_dangerous(script: &str) -> bool {
    let c: Vec<char> = script.chars().collect();
    let mut i = 0;
    let skip_ws = |i: &mut usize| {
        while *i < c.len() && (c[*i].is_whitespace() || c[*i] == ';') {
            *i += 1;
        }
    };
    let read_delimited = |i: &mut usize, d: char| -> bool {
        while *i < c.len() {
            if c[*i] == '\\' {
                *i += 2;
                continue;
            }
            if c[*i] == d {
                *i += 1;
                return true;
            }
            *i += 1;
        }
        false
    };
    loop {
        skip_ws(&mut i);
        if i >= c.len() {
            return false;
        }
        // Addresses.
        loop {
            if i >= c.len() {
                return false;
            }
            match c[i] {
                '0'..='9' | '$' | ',' | '~' | '+' | '!' | ' ' => i += 1,
                '/' => {
                    i += 1;
                    if !read_delimited(&mut i, '/') {
                        return true;
                    }
                    while i < c.len() && matches!(c[i], 'I' | 'M') {
                        i += 1;
                    }
                }
                '\\' => {
                    let Some(&d) = c.get(i + 1) else { return true };
                    i += 2;
                    if !read_delimited(&mut i, d) {
                        return true;
                    }
                }
                _ => break,
            }
        }
        let cmd = c[i];
        i += 1;
        match cmd {
            '{' | '}' | 'p' | 'd' | 'D' | 'n' | 'N' | 'g' | 'G' | 'h' | 'H' | 'x' | '=' | 'z'
            | 'P' | 'F' => {}
            's' | 'y' => {
                let Some(&d) = c.get(i) else { return true };
                if d == '\\' || d == '\n' {
                    return true;
                }
                i += 1;
                if !read_delimited(&mut i, d) || !read_delimited(&mut i, d) {
                    return true;
                }
                if cmd == 's' {
                    while i < c.len() && !matches!(c[i], ';' | '\n' | '}') {
                        match c[i] {
                            'e' | 'w' | 'W' => return true,
                            'g' | 'p' | 'i' | 'I' | 'm' | 'M' | '0'..='9' | ' ' => i += 1,
                            _ => return true,
                        }
                    }
                }
            }
            'a' | 'i' | 'c' => {
                while i < c.len() && c[i] != '\n' {
                    if c[i] == '\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            'b' | 't' | 'T' | ':' | 'q' | 'Q' | 'l' | 'L' => {
                while i < c.len() && !matches!(c[i], ';' | '\n') {
                    if cmd != ':' && c[i] == '}' {
                        break;
                    }
                    i += 1;
                }
            }
            _ => return true,
        }
    }
}

/// Files a command reads and writes, as indexes into its words.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FileOps {
    pub reads: Vec<usize>,
    pub writes: Vec<usize>,
    /// Words after which the program writes files the analysis cannot name (`patch --unsafe-paths`).
    pub unknown_writes: Vec<usize>,
    /// Backup copies: each written file's name plus the suffix (`cp -S .bak`, `--suffix=rc`), as paths.
    pub backups: Vec<Word>,
}

fn operands(words: &[Word]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut after_dashdash = false;
    for (i, w) in words.iter().enumerate().skip(1) {
        let t = w.text();
        if !after_dashdash && t == "--" {
            after_dashdash = true;
            continue;
        }
        if (after_dashdash || !t.starts_with('-')) && t != "-" {
            out.push(i);
        }
    }
    out
}

/// The files a recognised file command reads and writes (`cat`, `head`, `cp`, `mv`, `rm`, `tee`, `sed`, ...).
pub fn file_ops(words: &[Word]) -> FileOps {
    let program = base_name(v(words, 0));
    let (option_files, values) = option_files(program, words);
    let mut ops = file_ops_of(program, words, operands(words), &option_files);
    ops.reads.retain(|i| !values.contains(i));
    ops.writes.retain(|i| !values.contains(i));
    for (i, write) in option_files {
        let list = if write {
            &mut ops.writes
        } else {
            &mut ops.reads
        };
        if !list.contains(&i) {
            list.push(i);
        }
    }
    for found in options_of(program, words) {
        match found.opt.role {
            OptionRole::UnknownWrites => ops.unknown_writes.push(found.at),
            OptionRole::BackupSuffix => {
                let Some(suffix) = found.value.as_ref() else {
                    continue;
                };
                for &i in &ops.writes {
                    let target = &words[i];
                    ops.backups
                        .push(match (target.value.as_deref(), suffix.value.as_deref()) {
                            (Some(t), Some(x)) => Word {
                                tilde: target.tilde,
                                ..Word::literal(&format!("{t}{x}"))
                            },
                            _ => Word {
                                raw: format!("{}{}", target.raw, suffix.raw),
                                ..Word::default()
                            },
                        });
                }
            }
            _ => {}
        }
    }
    ops
}

fn file_ops_of(
    program: &str,
    words: &[Word],
    ops: Vec<usize>,
    option_files: &[(usize, bool)],
) -> FileOps {
    let ops: Vec<usize> = ops
        .into_iter()
        .filter(|i| !option_files.iter().any(|(j, _)| j == i))
        .collect();
    match program {
        "cat" | "head" | "tail" | "less" | "more" | "wc" | "stat" | "file" | "sort" | "cut"
        | "diff" | "du" | "ls" | "nl" | "od" | "xxd" | "hexdump" | "strings" | "md5sum"
        | "sha1sum" | "sha256sum" | "base64" | "tac" | "cmp" | "tree" | "readlink" | "realpath" => {
            FileOps {
                reads: ops,
                writes: Vec::new(),
                ..FileOps::default()
            }
        }
        "uniq" => FileOps {
            reads: ops.first().copied().into_iter().collect(),
            writes: ops.get(1).copied().into_iter().collect(),
            ..FileOps::default()
        },
        "grep" | "egrep" | "fgrep" | "rg" | "ag" | "ack" | "jq" | "awk" => {
            let has_pattern_flag = words.iter().any(|w| {
                matches!(w.text(), "-e" | "-f" | "--regexp" | "--file")
                    || w.text().starts_with("--regexp=")
            });
            let skip = if has_pattern_flag { 0 } else { 1 };
            FileOps {
                reads: ops.into_iter().skip(skip).collect(),
                writes: Vec::new(),
                ..FileOps::default()
            }
        }
        "find" => {
            let starts: Vec<usize> = words
                .iter()
                .enumerate()
                .skip(1)
                .take_while(|(_, w)| {
                    let t = w.text();
                    !(t.starts_with('-') || t == "(" || t == "!" || t == ")")
                })
                .map(|(i, _)| i)
                .collect();
            // `-fprint FILE` and the like write FILE; `-delete` removes what it finds under the start points.
            let mut writes: Vec<usize> = words
                .iter()
                .enumerate()
                .filter(|(_, w)| matches!(w.text(), "-fprint" | "-fprint0" | "-fls" | "-fprintf"))
                .map(|(i, _)| i + 1)
                .filter(|i| *i < words.len())
                .collect();
            if words.iter().any(|w| w.text() == "-delete") {
                writes.extend(&starts);
                FileOps {
                    reads: Vec::new(),
                    writes,
                    ..FileOps::default()
                }
            } else {
                FileOps {
                    reads: starts,
                    writes,
                    ..FileOps::default()
                }
            }
        }
        "cp" | "ln" | "install" | "rsync" | "mv" if option_files.iter().any(|(_, w)| *w) => {
            if program == "mv" {
                FileOps {
                    reads: Vec::new(),
                    writes: ops,
                    ..FileOps::default()
                }
            } else {
                FileOps {
                    reads: ops,
                    writes: Vec::new(),
                    ..FileOps::default()
                }
            }
        }
        "cp" | "ln" | "install" | "rsync" => {
            let mut reads = ops.clone();
            let writes = reads.pop().into_iter().collect();
            FileOps {
                reads,
                writes,
                ..FileOps::default()
            }
        }
        "dd" | "curl" | "wget" | "gcc" | "cc" | "clang" => FileOps::default(),
        // `patch [ORIGINALFILE [PATCHFILE]]`: the first is patched (written), the second read.
        "patch" => FileOps {
            writes: ops.first().copied().into_iter().collect(),
            reads: ops.get(1).copied().into_iter().collect(),
            ..FileOps::default()
        },
        // What tar stores (or, in an old-style `tar czf`, its mode and archive too): read.
        "tar" | "zip" | "source" | "." | "scp" => FileOps {
            reads: ops,
            writes: Vec::new(),
            ..FileOps::default()
        },
        "mv" | "rm" | "rmdir" | "touch" | "mkdir" | "tee" | "truncate" | "shred" | "unlink"
        | "chmod" | "chown" | "chgrp" => {
            let skip = usize::from(matches!(program, "chmod" | "chown" | "chgrp"));
            FileOps {
                reads: Vec::new(),
                writes: ops.into_iter().skip(skip).collect(),
                ..FileOps::default()
            }
        }
        "sed" => {
            let args = sed_args(words);
            if args.in_place {
                FileOps {
                    reads: Vec::new(),
                    writes: args.files,
                    ..FileOps::default()
                }
            } else {
                FileOps {
                    reads: args.files,
                    writes: Vec::new(),
                    ..FileOps::default()
                }
            }
        }
        _ => FileOps::default(),
    }
}

/// Whether a command is one of the built-in read-only commands (docs/permissions.md §3), with no write or exec flag.
/// Paths are checked separately.
pub fn is_read_only(words: &[Word]) -> bool {
    let program = v(words, 0);
    match program {
        "ls" | "cat" | "echo" | "pwd" | "head" | "tail" | "grep" | "rg" | "wc" | "which"
        | "diff" | "stat" | "du" | "cd" | "cut" | "tr" | "jq" | "printf" | "true" | "false"
        | ":" | "[[" | "egrep" | "fgrep" => program != "rg" || exec_wrapper(words).is_none(),
        "find" => exec_wrapper(words).is_none(),
        "sort" => {
            !option_files("sort", words).0.iter().any(|(_, w)| *w)
                && !words.iter().any(|w| {
                    w.text().strip_prefix("--").is_some_and(|n| {
                        let n = n.split('=').next().unwrap_or(n);
                        n.len() >= 2 && abbreviates(n, "compress-program")
                    })
                })
        }
        "uniq" => operands(words).len() < 2,
        "file" => !words
            .iter()
            .any(|w| w.text() == "-C" || w.text() == "--compile"),
        "git" => git_is_read_only(words),
        _ => false,
    }
}

/// Read-only git: `status log diff show branch (listing) rev-parse ls-files blame`, with harmless global options.
fn git_is_read_only(words: &[Word]) -> bool {
    let mut i = 1;
    while i < words.len() {
        match v(words, i) {
            "--no-pager" | "-P" | "--no-optional-locks" => i += 1,
            "-C" => i += 2,
            _ => break,
        }
    }
    let sub = v(words, i);
    let rest = &words[(i + 1).min(words.len())..];
    let bad_flag = rest.iter().any(|w| {
        let t = w.text();
        let name = t
            .strip_prefix("--")
            .map(|n| n.split('=').next().unwrap_or(n));
        name.is_some_and(|n| n.len() >= 2 && abbreviates(n, "output"))
            || t == "--ext-diff"
            || t.starts_with("--exec")
    });
    if bad_flag {
        return false;
    }
    match sub {
        "status" | "log" | "diff" | "show" | "rev-parse" | "ls-files" | "blame" => true,
        "branch" => rest.iter().all(|w| {
            matches!(
                w.text(),
                "--list"
                    | "-l"
                    | "-a"
                    | "--all"
                    | "-r"
                    | "--remotes"
                    | "-v"
                    | "-vv"
                    | "--verbose"
                    | "--show-current"
                    | "--no-color"
                    | "--color"
                    | "--merged"
                    | "--no-merged"
                    | "--contains"
            ) || w.text().starts_with("--format")
                || w.text().starts_with("--sort")
        }),
        _ => false,
    }
}

/// The directory a `git -C DIR` runs in, as an index into the words.
pub fn git_dir_args(words: &[Word]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut i = 1;
    while i < words.len() {
        match v(words, i) {
            "-C" | "--git-dir" | "--work-tree" => {
                out.push(i + 1);
                i += 2
            }
            t if t.starts_with('-') => i += 1,
            _ => break,
        }
    }
    out.retain(|i| *i < words.len());
    out
}

/// Arguments of a read-only command that name paths to check against the working directories.
pub fn read_only_paths(words: &[Word]) -> Vec<usize> {
    match v(words, 0) {
        "echo" | "printf" | "true" | "false" | ":" | "[[" | "pwd" | "which" | "tr" => Vec::new(),
        "git" => {
            let mut out = git_dir_args(words);
            for (i, w) in words.iter().enumerate().skip(1) {
                if looks_like_path(w.text()) && !out.contains(&i) {
                    out.push(i);
                }
            }
            out
        }
        _ => {
            let mut out = file_ops(words).reads;
            for (i, w) in words.iter().enumerate().skip(1) {
                let t = w.text();
                if out.contains(&i) {
                    continue;
                }
                let candidate = t.split_once('=').map(|(_, v)| v).unwrap_or(t);
                if looks_like_path(candidate) {
                    out.push(i);
                }
            }
            out
        }
    }
}

/// Whether text looks like a path that may leave the working directory.
pub fn looks_like_path(text: &str) -> bool {
    text.starts_with('/')
        || text.starts_with('~')
        || text == ".."
        || text.starts_with("../")
        || text.contains("/../")
        || text.ends_with("/..")
        || text.contains('$')
}

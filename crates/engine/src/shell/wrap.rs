//! Where the command run by a wrapper starts (`sudo -u x CMD`, `chroot DIR CMD`, `nsenter -t 1 -m CMD`,
//! `find -exec CMD ;`, `xargs CMD`, ...), read the way each wrapper reads its options: an explicit table per
//! wrapper, GNU long options matched by unambiguous prefix. A wrapper whose options are not understood gives
//! [`Inner::Unknown`]: the command it runs cannot be found, so the command cannot be analysed.

use super::classify::base_name;
use super::strip::wrapper_len;
use super::word::Word;

/// The command a wrapper runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Inner {
    /// Not a wrapper, or a wrapper given no command.
    None,
    /// The inner commands, as words (a `find` may have several `-exec`).
    Commands(Vec<Vec<Word>>),
    /// The wrapper runs this word as shell text.
    Script(String),
    /// The wrapper's arguments are not understood: where its command starts is unknown.
    Unknown(String),
}

/// How a wrapper reads its arguments.
struct Spec {
    /// Short options taking a value (attached or the next word).
    short_value: &'static str,
    /// Short options taking no value.
    short_flag: &'static str,
    /// Short options whose value, if any, is attached (`-m[file]`).
    short_optional: &'static str,
    /// The short option whose value is shell text (`-c`), if any.
    short_script: Option<char>,
    long_value: &'static [&'static str],
    long_flag: &'static [&'static str],
    long_script: &'static [&'static str],
    /// Words between the options and the command (`chroot NEWROOT`, `flock FILE`, `chrt PRIORITY`).
    positional: usize,
    /// `NAME=VALUE` words before the command are assignments (`env`, `sudo`).
    assignments: bool,
    /// Every `--name` and `--name=value` is an option with no separate value (`valgrind`, `firejail`, `prlimit`).
    loose_long: bool,
}

const NONE: &[&str] = &[];

fn spec(program: &str) -> Option<Spec> {
    let s = |short_value, short_flag, long_value, long_flag| Spec {
        short_value,
        short_flag,
        short_optional: "",
        short_script: None,
        long_value,
        long_flag,
        long_script: NONE,
        positional: 0,
        assignments: false,
        loose_long: false,
    };
    let loose = |short_value, short_flag| Spec {
        loose_long: true,
        ..s(short_value, short_flag, NONE, NONE)
    };
    Some(match program {
        // Output-collecting, pseudo-terminal and environment wrappers: each runs the command after its options.
        "unbuffer" => s("", "p", NONE, NONE),
        "chronic" => s("", "ev", NONE, NONE),
        "ifne" => s("", "n", NONE, NONE),
        "zrun" | "eatmydata" | "nocache" | "fakechroot" | "winpty" | "tsocks" => {
            s("", "", NONE, NONE)
        }
        "lckdo" => Spec {
            positional: 1,
            ..s("", "qw", NONE, NONE)
        },
        "faketime" => Spec {
            positional: 1,
            ..s("", "mf", &["date-prog"], &["exclude-monotonic"])
        },
        "gosu" | "su-exec" => Spec {
            positional: 1,
            ..s("", "", NONE, NONE)
        },
        "setarch" => Spec {
            positional: 1,
            ..loose("", "vRFZLXBIST3")
        },
        "linux32" | "linux64" => loose("", "vRFZLXBIST3"),
        "runcon" => s(
            "urtl",
            "c",
            &["user", "role", "type", "range"],
            &["compute"],
        ),
        "numactl" => loose("iNmpCP", "alsH"),
        "cgexec" => s("g", "", NONE, &["sticky"]),
        "setpriv" => loose("", "d"),
        "prlimit" => loose("p", "v"),
        "valgrind" | "firejail" => loose("", "qv"),
        "proxychains" | "proxychains4" => s("f", "q", NONE, NONE),
        "torsocks" => s(
            "uapP",
            "idq",
            &["user", "pass", "address", "port"],
            &["isolate", "quiet"],
        ),
        "xvfb-run" => s(
            "nsefwp",
            "alh",
            &[
                "server-num",
                "server-args",
                "error-file",
                "auth-file",
                "wait",
                "xauth-protocol",
            ],
            &["auto-servernum", "listen-tcp", "help"],
        ),
        "dbus-run-session" => loose("", ""),
        "dbus-launch" => loose("", ""),
        "ssh-agent" => s("aEPOt", "csDdk", NONE, NONE),
        "rlwrap" => s("bCfHlopPqsStwzgDeMO", "acimnrRUWv", NONE, NONE),
        "caffeinate" => s("tw", "dimsu", NONE, NONE),
        "tini" | "dumb-init" => loose("seglpw", "vcr"),
        "systemd-run" => Spec {
            loose_long: true,
            ..s(
                "uMpEHjsG",
                "qdrtPSGr",
                &[
                    "unit",
                    "property",
                    "description",
                    "slice",
                    "setenv",
                    "working-directory",
                    "uid",
                    "gid",
                    "nice",
                    "machine",
                    "host",
                    "service-type",
                    "on-active",
                    "on-boot",
                    "on-calendar",
                ],
                NONE,
            )
        },
        "sudo" => Spec {
            assignments: true,
            ..s(
                "ughpCDrtUTR",
                "AbEHiKklnPSsVv",
                &[
                    "user",
                    "group",
                    "host",
                    "prompt",
                    "close-from",
                    "chdir",
                    "role",
                    "type",
                    "other-user",
                    "command-timeout",
                    "chroot",
                ],
                &[
                    "askpass",
                    "background",
                    "bell",
                    "preserve-env",
                    "set-home",
                    "login",
                    "remove-timestamp",
                    "reset-timestamp",
                    "non-interactive",
                    "preserve-groups",
                    "shell",
                    "stdin",
                    "validate",
                    "list",
                ],
            )
        },
        "doas" => s("uC", "nsL", NONE, NONE),
        "env" => Spec {
            short_script: Some('S'),
            long_script: &["split-string"],
            assignments: true,
            ..s(
                "uC",
                "i0v",
                &["unset", "chdir"],
                &[
                    "ignore-environment",
                    "null",
                    "debug",
                    "default-signal",
                    "ignore-signal",
                    "block-signal",
                    "list-signal-handling",
                ],
            )
        },
        "setsid" => s("", "cfw", NONE, &["ctty", "fork", "wait"]),
        "ionice" => s(
            "cnpPu",
            "t",
            &["class", "classdata", "pid", "pgid", "uid"],
            &["ignore"],
        ),
        "chrt" => Spec {
            positional: 1,
            ..s(
                "TPD",
                "abdfiormRev",
                &["sched-runtime", "sched-period", "sched-deadline"],
                &[
                    "all-tasks",
                    "batch",
                    "deadline",
                    "fifo",
                    "idle",
                    "other",
                    "rr",
                    "reset-on-fork",
                    "verbose",
                ],
            )
        },
        "taskset" => Spec {
            positional: 1,
            ..s("", "acv", NONE, &["all-tasks", "cpu-list", "verbose"])
        },
        "flock" => Spec {
            short_script: Some('c'),
            long_script: &["command"],
            positional: 1,
            ..s(
                "wE",
                "sxunoFv",
                &["timeout", "conflict-exit-code"],
                &[
                    "shared",
                    "exclusive",
                    "unlock",
                    "nonblock",
                    "nb",
                    "close",
                    "no-fork",
                    "verbose",
                ],
            )
        },
        "nsenter" => Spec {
            short_optional: "muinpUCTrw",
            ..s(
                "tSGN",
                "aFZec",
                &["target", "setuid", "setgid", "net-socket"],
                &[
                    "all",
                    "mount",
                    "uts",
                    "ipc",
                    "net",
                    "pid",
                    "user",
                    "cgroup",
                    "time",
                    "root",
                    "wd",
                    "no-fork",
                    "preserve-credentials",
                    "follow-context",
                    "env",
                    "join-cgroup",
                ],
            )
        },
        "unshare" => Spec {
            short_optional: "muinpUCT",
            ..s(
                "RwSGl",
                "frcK",
                &[
                    "root",
                    "wd",
                    "setuid",
                    "setgid",
                    "propagation",
                    "setgroups",
                    "map-user",
                    "map-group",
                    "map-users",
                    "map-groups",
                    "load-interp",
                ],
                &[
                    "mount",
                    "uts",
                    "ipc",
                    "net",
                    "pid",
                    "user",
                    "cgroup",
                    "time",
                    "fork",
                    "map-root-user",
                    "map-current-user",
                    "map-auto",
                    "mount-proc",
                    "mount-binfmt",
                    "kill-child",
                    "keep-caps",
                ],
            )
        },
        "chroot" => Spec {
            positional: 1,
            ..s("", "", &["userspec", "groups"], &["skip-chdir"])
        },
        "runuser" | "su" => Spec {
            short_script: Some('c'),
            long_script: &["command", "session-command"],
            ..s(
                "ugGsw",
                "lmpPf",
                &[
                    "user",
                    "group",
                    "supp-group",
                    "shell",
                    "whitelist-environment",
                ],
                &["login", "preserve-environment", "pty", "fast"],
            )
        },
        "fakeroot" => s(
            "lisb",
            "uh",
            &["lib", "faked", "fd-base"],
            &["unknown-is-real"],
        ),
        "catchsegv" | "busybox" | "nohup" => s("", "", NONE, NONE),
        "script" => Spec {
            short_script: Some('c'),
            long_script: &["command"],
            ..s(
                "ITOBEm",
                "aefqtr",
                &[
                    "log-io",
                    "log-in",
                    "log-out",
                    "log-timing",
                    "echo",
                    "logging-format",
                    "output-limit",
                    "timing",
                ],
                &["append", "return", "flush", "force", "quiet"],
            )
        },
        "watch" => s(
            "nd",
            "bceg pt xwrC",
            &["interval", "differences", "shotsdir"],
            &[
                "beep", "color", "no-color", "errexit", "chgexit", "precise", "no-title", "exec",
                "no-wrap", "no-rerun",
            ],
        ),
        "exec" => s("a", "cl", NONE, NONE),
        "strace" | "ltrace" => s("abeEIoOpPsSuUX", "cCdDfFhikqrtTvVwxyYzZn", NONE, NONE),
        "xargs" => Spec {
            short_optional: "eil",
            ..s(
                "adEILnPs",
                "0oprtx",
                &[
                    "arg-file",
                    "delimiter",
                    "max-lines",
                    "max-args",
                    "max-procs",
                    "max-chars",
                    "process-slot-var",
                ],
                &[
                    "null",
                    "interactive",
                    "no-run-if-empty",
                    "verbose",
                    "exit",
                    "open-tty",
                    "show-limits",
                    "eof",
                    "replace",
                ],
            )
        },
        "ssh" => Spec {
            positional: 1,
            ..s(
                "bcDEeFIiJLlmOopQRSWwB",
                "46AaCfGgKkMNnqsTtVvXxYy",
                NONE,
                NONE,
            )
        },
        _ => return None,
    })
}

/// Where the command run by `words` starts, read with `spec`.
fn read(program: &str, words: &[Word], spec: &Spec) -> Inner {
    let unknown =
        |what: &str| Inner::Unknown(format!("`{program}` has an option not understood ({what})"));
    let mut i = 1;
    let mut script: Option<String> = None;
    let mut user: Option<usize> = None;
    while let Some(w) = words.get(i) {
        let Some(t) = w.value.as_deref() else {
            return Inner::Unknown(format!(
                "`{program}` gets an argument only known when it runs"
            ));
        };
        if t == "--" {
            i += 1;
            break;
        }
        if let Some(long) = t.strip_prefix("--") {
            let (name, value) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (long, None),
            };
            let all = spec
                .long_value
                .iter()
                .chain(spec.long_flag)
                .chain(spec.long_script);
            let exact = all.clone().find(|o| **o == name);
            let matches: Vec<&&str> = all.filter(|o| o.starts_with(name)).collect();
            let Some(option) = exact.or((matches.len() == 1).then(|| matches[0])) else {
                if spec.loose_long {
                    i += 1;
                    continue;
                }
                return unknown(t);
            };
            let takes = spec.long_value.contains(option) || spec.long_script.contains(option);
            let value = match (takes, value) {
                (true, Some(v)) => v.to_string(),
                (true, None) => {
                    i += 1;
                    match words.get(i).and_then(|w| w.value.clone()) {
                        Some(v) => v,
                        None => return unknown(t),
                    }
                }
                _ => String::new(),
            };
            if spec.long_script.contains(option) {
                script = Some(value);
            }
            i += 1;
            continue;
        }
        if t.len() > 1 && t.starts_with('-') && !(program == "env" && t == "-") {
            let chars: Vec<char> = t[1..].chars().collect();
            let mut k = 0;
            while k < chars.len() {
                let c = chars[k];
                let rest: String = chars[k + 1..].iter().collect();
                if spec.short_value.contains(c) || spec.short_script == Some(c) {
                    let value = if rest.is_empty() {
                        i += 1;
                        match words.get(i).and_then(|w| w.value.clone()) {
                            Some(v) => v,
                            None => return unknown(t),
                        }
                    } else {
                        rest
                    };
                    if spec.short_script == Some(c) {
                        script = Some(value);
                    }
                    break;
                }
                if spec.short_optional.contains(c) {
                    break;
                }
                if !spec.short_flag.contains(c) || c == ' ' {
                    return unknown(t);
                }
                k += 1;
            }
            i += 1;
            continue;
        }
        if t == "-" && matches!(program, "env" | "su" | "runuser") {
            i += 1;
            continue;
        }
        // su and runuser read their options around the user name (`runuser USER -c CMD`).
        if matches!(program, "su" | "runuser") && user.is_none() && !has_user_option(words) {
            user = Some(i);
            i += 1;
            continue;
        }
        break;
    }
    if let Some(script) = script {
        return Inner::Script(script);
    }
    if spec.assignments {
        while words.get(i).is_some_and(|w| {
            w.value
                .as_deref()
                .is_some_and(|t| super::strip::assignment_name(&Word::literal(t)).is_some())
        }) {
            i += 1;
        }
    }
    i += spec.positional;
    if matches!(program, "runuser" | "su") && !has_user_option(words) {
        // Without `-u`, what follows the user name is given to the user's shell.
        return if i < words.len() {
            Inner::Unknown(format!("`{program}` gives its arguments to a shell"))
        } else {
            Inner::None
        };
    }
    if i < words.len() {
        Inner::Commands(vec![words[i..].to_vec()])
    } else {
        Inner::None
    }
}

/// Whether `program` is a wrapper this module reads (whatever it is given).
pub fn is_wrapper(program: &str) -> bool {
    spec(program).is_some()
        || matches!(
            program,
            "time"
                | "nice"
                | "timeout"
                | "stdbuf"
                | "command"
                | "builtin"
                | "coproc"
                | "direnv"
                | "kubectl"
                | "oc"
                | "docker"
                | "podman"
                | "find"
                | "parallel"
                | "pee"
                | "mispipe"
                | "hyperfine"
                | "sg"
                | "entr"
        )
}

/// A word standing for what a command gets only when it runs (a `find` match, a line `xargs` reads).
fn runtime(raw: &str) -> Word {
    Word {
        raw: raw.to_string(),
        ..Word::default()
    }
}

/// The command(s) a wrapper at the start of `words` runs.
pub fn inner(words: &[Word]) -> Inner {
    let Some(first) = words.first() else {
        return Inner::None;
    };
    let program = base_name(first.text());
    match program {
        "time" | "nice" | "timeout" | "stdbuf" | "command" | "builtin" => {
            match wrapper_len(words) {
                Some(n) => Inner::Commands(vec![words[n..].to_vec()]),
                None if program == "command" || words.len() == 1 => Inner::None,
                None => Inner::Unknown(format!("`{program}` has an option not understood")),
            }
        }
        "coproc" => {
            if words
                .iter()
                .any(|w| matches!(w.raw.as_str(), "{" | "(" | "(("))
            {
                Inner::Unknown("`coproc` with a compound command".into())
            } else {
                read(program, words, &spec("nohup").unwrap_or_else(no_options))
            }
        }
        "direnv" if words.get(1).map(|w| w.text()) == Some("exec") => {
            if words.len() > 3 {
                Inner::Commands(vec![words[3..].to_vec()])
            } else {
                Inner::None
            }
        }
        "kubectl" | "oc" if words.get(1).map(|w| w.text()) == Some("exec") => {
            match words.iter().position(|w| w.text() == "--") {
                Some(at) if at + 1 < words.len() => Inner::Commands(vec![words[at + 1..].to_vec()]),
                _ => Inner::None,
            }
        }
        "docker" | "podman" if words.get(1).map(|w| w.text()) == Some("exec") => {
            let mut i = 2;
            while let Some(t) = words.get(i).map(|w| w.text()) {
                if matches!(
                    t,
                    "-e" | "--env"
                        | "-u"
                        | "--user"
                        | "-w"
                        | "--workdir"
                        | "--env-file"
                        | "--detach-keys"
                ) {
                    i += 2;
                } else if t.starts_with('-') {
                    i += 1;
                } else {
                    break;
                }
            }
            if i + 1 < words.len() {
                Inner::Commands(vec![words[i + 1..].to_vec()])
            } else {
                Inner::None
            }
        }
        "find" => {
            let mut out = Vec::new();
            let mut i = 1;
            while i < words.len() {
                if matches!(words[i].text(), "-exec" | "-execdir" | "-ok" | "-okdir") {
                    let end = words[i + 1..]
                        .iter()
                        .position(|w| matches!(w.text(), ";" | "+"))
                        .map_or(words.len(), |p| p + i + 1);
                    let cmd: Vec<Word> = words[i + 1..end]
                        .iter()
                        .map(|w| {
                            if w.text().contains("{}") {
                                runtime(&w.raw)
                            } else {
                                w.clone()
                            }
                        })
                        .collect();
                    if !cmd.is_empty() {
                        out.push(cmd);
                    }
                    i = end;
                }
                i += 1;
            }
            if out.is_empty() {
                Inner::None
            } else {
                Inner::Commands(out)
            }
        }
        "parallel" => parallel(words),
        // Each argument is shell text: `pee CMD...`, `mispipe CMD1 CMD2`, `hyperfine CMD...` (with its setup,
        // prepare and cleanup commands).
        "pee" | "mispipe" | "hyperfine" => scripts_of(program, words),
        // `sg GROUP [-c] CMD`: the command runs through `/bin/sh -c`.
        "sg" => match words.get(2).map(|w| w.text()) {
            Some("-c") => script_word(words.get(3), program),
            Some(_) => script_word(words.get(2), program),
            None => Inner::None,
        },
        // `entr -s CMD` runs shell text; otherwise the utility after its flags.
        "entr" => {
            let flags: Vec<&str> = words[1..]
                .iter()
                .map(|w| w.text())
                .take_while(|t| t.starts_with('-'))
                .collect();
            let at = 1 + flags.len();
            if flags.iter().any(|f| f.contains('s')) {
                script_word(words.get(at), program)
            } else if at < words.len() {
                Inner::Commands(vec![words[at..].to_vec()])
            } else {
                Inner::None
            }
        }
        // `flock FILE -c STRING`: the option may follow the file.
        "flock"
            if let Some(at) = words
                .iter()
                .position(|w| w.text() == "-c" || w.text().starts_with("--command")) =>
        {
            match words[at].text().split_once('=') {
                Some((_, v)) => Inner::Script(v.to_string()),
                None => words.get(at + 1).and_then(|w| w.value.clone()).map_or_else(
                    || Inner::Unknown("`flock -c` of a runtime string".into()),
                    Inner::Script,
                ),
            }
        }
        "xargs" => {
            let Some(spec) = spec("xargs") else {
                return Inner::None;
            };
            match read(program, words, &spec) {
                Inner::Commands(mut cmds) => {
                    let replace = words.iter().any(|w| {
                        let t = w.text();
                        t.starts_with("-I") || t.starts_with("-i") || t.starts_with("--replace")
                    });
                    for cmd in &mut cmds {
                        if replace {
                            for w in cmd.iter_mut().skip(1) {
                                *w = runtime(&w.raw);
                            }
                        }
                        cmd.push(runtime("(input)"));
                    }
                    Inner::Commands(cmds)
                }
                Inner::None => Inner::None,
                other => other,
            }
        }
        _ => match spec(program) {
            Some(spec) => read(program, words, &spec),
            None => Inner::None,
        },
    }
}

/// The shell text one word holds, or why it is unknown.
fn script_word(word: Option<&Word>, program: &str) -> Inner {
    match word {
        None => Inner::None,
        Some(w) => match &w.value {
            Some(text) => Inner::Script(text.clone()),
            None => Inner::Unknown(format!(
                "`{program}` runs a command only known when it runs"
            )),
        },
    }
}

/// Programs whose every operand (and the values of a few options) is shell text: all of them, as one script.
fn scripts_of(program: &str, words: &[Word]) -> Inner {
    // hyperfine's options whose values are data (commands are `--prepare`, `--setup`, `--cleanup`, `--conclude`).
    const DATA: &[&str] = &[
        "-w",
        "--warmup",
        "-r",
        "--runs",
        "-m",
        "--min-runs",
        "-M",
        "--max-runs",
        "-S",
        "--shell",
        "-n",
        "--command-name",
        "-u",
        "--time-unit",
        "--style",
        "--sort",
        "--export-json",
        "--export-csv",
        "--export-markdown",
        "--export-asciidoc",
        "--export-orgmode",
        "-P",
        "--parameter-scan",
        "-L",
        "--parameter-list",
        "-D",
        "--parameter-step-size",
        "--output",
        "--input",
        "-i",
        "--ignore-failure",
    ];
    let mut texts = Vec::new();
    let mut i = 1;
    while let Some(w) = words.get(i) {
        let t = w.text();
        if program == "hyperfine" && t.starts_with('-') {
            let takes_script = matches!(
                t,
                "-p" | "--prepare" | "-s" | "--setup" | "-c" | "--cleanup" | "--conclude"
            );
            let skip = match t {
                "-P" | "--parameter-scan" => 3,
                "-L" | "--parameter-list" => 2,
                "-i" | "--ignore-failure" => 0,
                _ if takes_script || DATA.contains(&t) => 1,
                _ => 0,
            };
            if takes_script {
                match words.get(i + 1).and_then(|w| w.value.clone()) {
                    Some(text) => texts.push(text),
                    None => {
                        return Inner::Unknown(format!(
                            "`{program}` runs a command only known when it runs"
                        ));
                    }
                }
            }
            i += 1 + skip;
            continue;
        }
        match &w.value {
            Some(text) => texts.push(text.clone()),
            None => {
                return Inner::Unknown(format!(
                    "`{program}` runs a command only known when it runs"
                ));
            }
        }
        i += 1;
    }
    if texts.is_empty() {
        Inner::None
    } else {
        Inner::Script(texts.join("\n"))
    }
}

/// `parallel [OPTIONS] COMMAND ::: ARGS`: the command (shell text, with `{}` standing for each argument) runs once
/// per argument; without a command it runs the lines it reads as commands.
fn parallel(words: &[Word]) -> Inner {
    const VALUE: &[&str] = &[
        "-j",
        "--jobs",
        "-P",
        "--max-procs",
        "-a",
        "--arg-file",
        "-d",
        "--delimiter",
        "-I",
        "-N",
        "-n",
        "--max-args",
        "-L",
        "--max-lines",
        "-S",
        "--sshlogin",
        "--joblog",
        "--results",
        "--colsep",
        "-C",
        "--halt",
        "--timeout",
        "--retries",
        "--delay",
        "--tmpdir",
        "--workdir",
        "--env",
        "--memfree",
        "--load",
        "--tagstring",
        "-E",
        "--eof",
        "-s",
        "--max-chars",
        "--sshloginfile",
        "--slf",
        "--basefile",
        "--bf",
        "--return",
        "--transfer-file",
        "--tf",
        "--block",
        "--block-size",
        "--recstart",
        "--recend",
        "--header",
        "--shebang-wrap",
    ];
    let mut i = 1;
    while let Some(t) = words.get(i).map(|w| w.text()) {
        if t == "--" {
            i += 1;
            break;
        }
        if !t.starts_with('-') || t.starts_with(":::") {
            break;
        }
        i += if VALUE.contains(&t) { 2 } else { 1 };
    }
    let end = words[i.min(words.len())..]
        .iter()
        .position(|w| w.text().starts_with(":::"))
        .map_or(words.len(), |p| p + i);
    if i >= end {
        return Inner::Unknown("`parallel` runs the commands it reads from its input".into());
    }
    let cmd = &words[i..end];
    if cmd.iter().any(|w| w.value.is_none()) {
        return Inner::Unknown("`parallel` runs a command only known when it runs".into());
    }
    let text: Vec<String> = cmd
        .iter()
        .map(|w| w.text().replace("{}", "\"$1\""))
        .collect();
    Inner::Script(text.join(" "))
}

/// A wrapper with no options.
fn no_options() -> Spec {
    Spec {
        short_value: "",
        short_flag: "",
        short_optional: "",
        short_script: None,
        long_value: NONE,
        long_flag: NONE,
        long_script: NONE,
        positional: 0,
        assignments: false,
        loose_long: false,
    }
}

/// Whether a `runuser` names its user with `-u` (the command then follows the options).
fn has_user_option(words: &[Word]) -> bool {
    words[1.min(words.len())..].iter().any(|w| {
        let t = w.text();
        t == "-u" || t.starts_with("--user")
    })
}

/// Whether a wrapper runs its command in another directory or root (`env -C`, `sudo -D`, `chroot`, `nsenter -w`,
/// `unshare -R`): relative paths of that command are then unknown.
pub fn changes_directory(words: &[Word]) -> bool {
    let Some(first) = words.first() else {
        return false;
    };
    let program = base_name(first.text());
    let flags: &[&str] = match program {
        "chroot" => return true,
        "env" => &["-C", "--chdir", "--ch"],
        "sudo" => &["-D", "--chdir", "-R", "--chroot"],
        "nsenter" => &["-w", "--wd", "-r", "--root"],
        "unshare" => &["-w", "--wd", "-R", "--root"],
        "docker" | "podman" | "kubectl" | "oc" | "ssh" => return true,
        _ => return false,
    };
    words[1..].iter().any(|w| {
        let t = w.text();
        flags
            .iter()
            .any(|f| t == *f || (t.starts_with(f) && t.len() > f.len()))
    })
}

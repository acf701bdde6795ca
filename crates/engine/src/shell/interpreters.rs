//! Code handed to an interpreter: `python3 -c`, `node -e`, `perl -ne`, `ruby -e`, `php -r`, `pwsh -Command`,
//! `gdb -ex`, `sqlite3 db .shell`, and interpreters reading their program from standard input (`echo … | python3`,
//! `python3 <<EOF`). Such code can do anything, so the command cannot be analysed, whatever else it says. Options
//! are over-approximated: a short-option cluster holding a code letter counts, and long options match by prefix.

use super::word::{Word, base_name};

/// How one interpreter takes code on its command line.
struct Interpreter {
    /// Letters that, anywhere in a `-xyz` cluster, make the interpreter run code given on the command line (or load
    /// code by name, as `perl -M` and `ruby -r` do).
    code_letters: &'static str,
    /// Long options (`--eval`, also given abbreviated) and single-dash words (`-ex`, `-Command`) that give code.
    code_options: &'static [&'static str],
    /// Subcommands that run code given as an argument (`deno eval`).
    code_subcommands: &'static [&'static str],
    /// Short options that take the rest of their cluster as a value, or the next word when none is left (so that
    /// word is not the script).
    value_letters: &'static str,
    /// Short options that take the rest of their cluster as an optional value (`perl -i.bak`, `perl -l0`).
    attached_letters: &'static str,
    /// Without a script operand it reads its program from standard input.
    reads_stdin: bool,
    /// Reads commands from standard input even when given an operand (`gdb PROGRAM`, `ed FILE`).
    always_stdin: bool,
    /// Options count after operands too (`npm exec -c CMD`): the first operand is a subcommand, not a script.
    options_anywhere: bool,
    /// Single-dash words match case-insensitively and by prefix (`pwsh -com`).
    loose_words: bool,
}

const NONE: &[&str] = &[];

const fn interp(code_letters: &'static str, code_options: &'static [&'static str]) -> Interpreter {
    Interpreter {
        code_letters,
        code_options,
        code_subcommands: NONE,
        value_letters: "",
        attached_letters: "",
        reads_stdin: true,
        always_stdin: false,
        options_anywhere: false,
        loose_words: false,
    }
}

/// The interpreter a program name stands for, version suffixes removed (`python3.12` → `python`).
fn interpreter(program: &str) -> Option<Interpreter> {
    let base = base_name(program);
    let name = base.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.' || c == '-');
    let name = if name.is_empty() { base } else { name };
    Some(match name {
        "python" | "pypy" => Interpreter {
            value_letters: "WXQ",
            ..interp("c", NONE)
        },
        "node" | "nodejs" => Interpreter {
            value_letters: "C",
            ..interp(
                "epri",
                &[
                    "--eval",
                    "--print",
                    "--require",
                    "--import",
                    "--loader",
                    "--experimental-loader",
                    "--interactive",
                ],
            )
        },
        "bun" => Interpreter {
            reads_stdin: false,
            ..interp("epr", &["--eval", "--print", "--preload"])
        },
        "deno" => Interpreter {
            code_subcommands: &["eval", "repl"],
            ..interp("", &["--eval"])
        },
        "perl" => Interpreter {
            value_letters: "I",
            attached_letters: "i",
            ..interp("eEMm", NONE)
        },
        "ruby" | "jruby" | "irb" => Interpreter {
            value_letters: "ICE",
            ..interp("er", &["--require"])
        },
        "php" => Interpreter {
            value_letters: "cdz",
            ..interp("rRBEa", NONE)
        },
        "lua" | "luajit" => interp("eli", NONE),
        "Rscript" | "R" => interp("e", &["--expr", "--file=-"]),
        "julia" => interp("eEiL", &["--eval", "--print", "--load"]),
        "tclsh" | "wish" | "expect" => interp("c", NONE),
        "osascript" => interp("e", NONE),
        "dc" => interp("e", &["--expression"]),
        "pwsh" | "powershell" => Interpreter {
            loose_words: true,
            ..interp("", &["-command", "-encodedcommand", "-ec", "-c", "-e"])
        },
        "gdb" => Interpreter {
            always_stdin: true,
            ..interp(
                "",
                &[
                    "-ex",
                    "-iex",
                    "-x",
                    "-ix",
                    "--eval-command",
                    "--init-eval-command",
                    "--command",
                    "-eval-command",
                    "-command",
                ],
            )
        },
        "ed" | "red" => Interpreter {
            always_stdin: true,
            ..interp("", NONE)
        },
        "emacs" => Interpreter {
            reads_stdin: false,
            ..interp(
                "lfx",
                &[
                    "--eval",
                    "-eval",
                    "--execute",
                    "--load",
                    "-load",
                    "--funcall",
                    "-funcall",
                    "--script",
                    "-script",
                ],
            )
        },
        "make" | "gmake" => Interpreter {
            reads_stdin: false,
            ..interp("E", &["--eval"])
        },
        "npx" | "npm" | "pnpm" => Interpreter {
            reads_stdin: false,
            options_anywhere: true,
            ..interp("c", &["--call"])
        },
        _ => return None,
    })
}

/// Programs whose arguments are data that may name an interpreter without running it.
const TEXT_PROGRAMS: &[&str] = &[
    "echo", "printf", "which", "type", "whereis", "command", "hash", "man", "info", "apropos",
    "whatis", "grep", "egrep", "fgrep", "rg", "ag", "ack", "git", "ls", "cat", "head", "tail",
];

/// Why the command hands code to an interpreter, if it does: the program itself, or an interpreter named further
/// on with a code option (`env python3 -c`, `uv run python -c`, `xargs perl -e`, `find -exec node -e`).
pub fn interpreter_code(words: &[Word]) -> Option<String> {
    let first = words.first()?;
    if let Some(why) = interpreter_words(words, true) {
        return Some(why);
    }
    if TEXT_PROGRAMS.contains(&base_name(first.text())) {
        return None;
    }
    (1..words.len()).find_map(|i| interpreter_words(&words[i..], false))
}

/// `words[0]` is an interpreter's name: why it runs code the analysis cannot see. `program_position`: the words are
/// the command itself (not arguments of another program), so reading standard input counts too.
fn interpreter_words(words: &[Word], program_position: bool) -> Option<String> {
    let first = words.first()?;
    let program = first.text();
    let name = base_name(program);
    if name == "sqlite3" {
        return sqlite_code(words, program_position);
    }
    let interp = interpreter(program)?;
    let code = |what: &str| Some(format!("`{name}` runs code given by `{what}`"));
    let mut operand = false;
    let mut i = 1;
    while i < words.len() {
        let word = &words[i];
        let t = word.text();
        if t == "--" {
            operand = i + 1 < words.len();
            break;
        }
        if t == "-" {
            break;
        }
        if matches_code_option(&interp, t) {
            return code(&word.raw);
        }
        if let Some(cluster) = t.strip_prefix('-').filter(|c| !c.starts_with('-')) {
            for (at, c) in cluster.char_indices() {
                if interp.code_letters.contains(c) {
                    return code(&word.raw);
                }
                if interp.value_letters.contains(c) {
                    if at + c.len_utf8() == cluster.len() {
                        i += 1;
                    }
                    break;
                }
                if interp.attached_letters.contains(c) {
                    break;
                }
            }
        } else if !t.starts_with('-') {
            if interp.code_subcommands.contains(&t) {
                return code(t);
            }
            // `python3 /dev/stdin`, `node <(curl …)`: the program comes from a stream, not a file.
            if !operand
                && (t.starts_with("/dev/") || t.starts_with("/proc/") || word.raw.starts_with("<("))
            {
                return Some(format!(
                    "`{name}` reads the code it runs from `{}`",
                    word.raw
                ));
            }
            operand = true;
            if !interp.options_anywhere {
                break;
            }
        }
        i += 1;
    }
    if !program_position {
        return None;
    }
    let informational = words[1..]
        .iter()
        .any(|w| matches!(w.text(), "--version" | "-V" | "--help" | "-h"));
    let stdin = interp.always_stdin || (interp.reads_stdin && !operand);
    (stdin && !informational)
        .then(|| format!("`{name}` reads the code it runs from its standard input"))
}

/// Whether word `t` is one of the interpreter's code options, given whole, abbreviated or with `=VALUE`.
fn matches_code_option(interp: &Interpreter, t: &str) -> bool {
    let name = t.split('=').next().unwrap_or(t);
    interp.code_options.iter().any(|o| {
        if o.contains('=') {
            return t == *o;
        }
        if interp.loose_words {
            let lower = name.to_ascii_lowercase();
            return lower.len() >= 2 && o.starts_with(&lower);
        }
        if let Some(long) = o.strip_prefix("--") {
            let given = name.strip_prefix("--");
            return given.is_some_and(|g| g.len() >= 2 && long.starts_with(g));
        }
        name == *o
    })
}

/// `sqlite3`'s dot-commands run programs and write files (`.shell`, `.system`, `.output`); they come as arguments,
/// from `-cmd`/`-init`, or from standard input when no SQL is given after the database.
fn sqlite_code(words: &[Word], program_position: bool) -> Option<String> {
    let mut operands = 0;
    for w in &words[1..] {
        let t = w.text();
        if matches!(t, "-cmd" | "--cmd" | "-init" | "--init") {
            return Some(format!("`sqlite3` runs commands given by `{}`", w.raw));
        }
        if !t.starts_with('-') {
            operands += 1;
            if operands > 1 && t.trim_start().starts_with('.') {
                return Some(format!("`sqlite3` runs the dot-command `{}`", w.raw));
            }
        }
    }
    (program_position && operands < 2)
        .then(|| "`sqlite3` reads the commands it runs from its standard input".to_string())
}

//! Options that name files or run code, per command: `sort -o FILE`, `cp -t DIR`, `tar -C DIR`, `dd of=FILE`,
//! `--output=FILE`; `tar --to-command`, `rsync -e`, `zip -TT`, `vim -c`, `git -c alias.x=!cmd`. Long options match
//! by unambiguous prefix, as GNU getopt reads them (`sort --out=x` is `--output=x`).

use super::word::Word;

/// An option naming a file: its short form (`'o'`), its long name (`"output"`), and whether the file is written.
type FileOption = (Option<char>, &'static str, bool);

const W: bool = true;
const R: bool = false;

fn file_options(program: &str) -> &'static [FileOption] {
    match program {
        "sort" => &[
            (Some('o'), "output", W),
            (Some('T'), "temporary-directory", W),
            (None, "files0-from", R),
        ],
        "cp" | "mv" | "ln" | "install" => &[(Some('t'), "target-directory", W)],
        "tar" => &[
            (Some('C'), "directory", W),
            (Some('f'), "file", W),
            (Some('T'), "files-from", R),
            (Some('X'), "exclude-from", R),
        ],
        "curl" => &[
            (Some('o'), "output", W),
            (Some('c'), "cookie-jar", W),
            (Some('D'), "dump-header", W),
            (Some('T'), "upload-file", R),
            (Some('K'), "config", R),
            (None, "trace", W),
        ],
        "wget" => &[
            (Some('O'), "output-document", W),
            (Some('o'), "output-file", W),
            (Some('a'), "append-output", W),
            (Some('P'), "directory-prefix", W),
            (Some('i'), "input-file", R),
        ],
        "grep" | "egrep" | "fgrep" => &[(Some('f'), "file", R)],
        "git" => &[(None, "output", W)],
        "patch" => &[(Some('o'), "output", W), (Some('i'), "input", R)],
        "gcc" | "cc" | "clang" | "g++" | "c++" => &[(Some('o'), "", W)],
        "jq" => &[(Some('f'), "from-file", R)],
        "diff" => &[(None, "from-file", R), (None, "to-file", R)],
        "sed" => &[(Some('f'), "file", R)],
        "uniq" | "split" | "shuf" | "base64" | "xxd" => &[(Some('o'), "output", W)],
        "unzip" => &[(Some('d'), "", W)],
        _ => &[],
    }
}

/// Whether `name` (the text after `--`, before any `=`) abbreviates `full`.
pub fn abbreviates(name: &str, full: &str) -> bool {
    !name.is_empty() && !full.is_empty() && full.starts_with(name)
}

/// The long option a `--name[=value]` word names among `options`, if it names exactly one (or one exactly).
fn long_option<'a>(word: &str, options: &[&'a str]) -> Option<&'a str> {
    let name = word.strip_prefix("--")?.split('=').next()?;
    if let Some(exact) = options.iter().find(|o| **o == name) {
        return Some(exact);
    }
    let matches: Vec<&&str> = options.iter().filter(|o| abbreviates(name, o)).collect();
    (matches.len() == 1).then(|| *matches[0])
}

/// Files named by options: `(index of the word holding the file, written)`, and the indexes of words that are
/// option values (not operands). A file attached to its option (`-oFILE`, `--output=FILE`, `of=FILE`) is
/// reported at the option's own word; [`option_value`] gives the file's text.
pub fn option_files(program: &str, words: &[Word]) -> (Vec<(usize, bool)>, Vec<usize>) {
    let table = file_options(program);
    let mut files = Vec::new();
    let mut values = Vec::new();
    let longs: Vec<&str> = table
        .iter()
        .map(|(_, l, _)| *l)
        .filter(|l| !l.is_empty())
        .collect();
    let mut i = 1;
    while i < words.len() {
        let t = words[i].text();
        if t == "--" {
            break;
        }
        if program == "dd" {
            if let Some((k, _)) = t.split_once('=')
                && matches!(k, "if" | "of")
            {
                files.push((i, k == "of"));
            }
        } else if t.starts_with("--") {
            if let Some(long) = long_option(t, &longs)
                && let Some((_, _, write)) = table.iter().find(|(_, l, _)| *l == long)
            {
                if t.contains('=') {
                    files.push((i, *write));
                } else if i + 1 < words.len() {
                    files.push((i + 1, *write));
                    values.push(i + 1);
                    i += 1;
                }
            } else if let Some((name, _)) = t.strip_prefix("--").and_then(|r| r.split_once('='))
                && ["output", "output-file", "log-file", "out-file", "outfile"]
                    .iter()
                    .any(|o| abbreviates(name, o) && name.len() >= 3)
            {
                files.push((i, true));
            }
        } else if t.len() > 1 && t.starts_with('-') {
            let chars: Vec<char> = t[1..].chars().collect();
            for (k, c) in chars.iter().enumerate() {
                if let Some((_, _, write)) = table.iter().find(|(s, _, _)| *s == Some(*c)) {
                    if k + 1 < chars.len() {
                        files.push((i, *write));
                    } else if i + 1 < words.len() {
                        files.push((i + 1, *write));
                        values.push(i + 1);
                        i += 1;
                    }
                    break;
                }
            }
        }
        i += 1;
    }
    (files, values)
}

/// The file named by an option word (`--output=FILE` → `FILE`, `-oFILE` → `FILE`, `of=FILE` → `FILE`), or the
/// word itself.
pub fn option_value(text: &str) -> &str {
    if let Some(rest) = text.strip_prefix("--") {
        return rest.split_once('=').map_or(text, |(_, v)| v);
    }
    if let Some(rest) = text.strip_prefix('-')
        && rest.len() > 1
    {
        let mut chars = rest.chars();
        chars.next();
        return chars.as_str();
    }
    if let Some(v) = text
        .strip_prefix("of=")
        .or_else(|| text.strip_prefix("if="))
    {
        return v;
    }
    text
}

/// Why options of a command make it run code that the analysis cannot see, if they do.
pub fn runs_code(program: &str, words: &[Word]) -> Option<String> {
    let args = &words[1.min(words.len())..];
    let long = |options: &[&str]| {
        args.iter()
            .map(|w| w.text())
            .find(|t| long_option(t, options).is_some())
            .map(str::to_string)
    };
    let found = match program {
        "tar" | "gtar" | "bsdtar" => long(&[
            "to-command",
            "use-compress-program",
            "info-script",
            "new-volume-script",
            "rsh-command",
            "checkpoint-action",
        ])
        .or_else(|| {
            args.iter()
                .find(|w| w.text() == "-I" || w.text() == "-F")
                .map(|w| w.raw.clone())
        }),
        "rsync" => long(&["rsh", "rsync-path"]).or_else(|| {
            args.iter()
                .find(|w| {
                    let t = w.text();
                    t.starts_with('-') && !t.starts_with("--") && t.contains('e')
                })
                .map(|w| w.raw.clone())
        }),
        "zip" => long(&["unzip-command"]).or_else(|| {
            args.iter()
                .find(|w| w.text() == "-TT")
                .map(|w| w.raw.clone())
        }),
        "vim" | "vi" | "nvim" | "ex" | "view" | "gvim" => args
            .iter()
            .find(|w| {
                let t = w.text();
                t == "-c" || t == "-S" || t == "--cmd" || t.starts_with('+')
            })
            .map(|w| w.raw.clone()),
        "awk" | "gawk" | "mawk" | "nawk" | "busybox-awk" => args
            .iter()
            .find(|w| {
                let t = w.text();
                matches!(t, "-f" | "-E" | "-i" | "-l")
                    || long_option(t, &["file", "exec", "include", "load", "source"]).is_some()
                    || t.contains("system")
                    || t.contains('|')
                    || awk_print_redirects(t)
                    || t.contains("getline")
            })
            .map(|w| w.raw.clone()),
        "git" => git_config_runs_code(args).or_else(|| {
            long(&["upload-pack", "receive-pack", "exec", "config-env"]).or_else(|| {
                args.iter()
                    .find(|w| w.text() == "-u")
                    .map(|w| w.raw.clone())
            })
        }),
        "ssh" | "scp" | "sftp" => args
            .iter()
            .map(|w| w.text())
            .find(|t| {
                let l = t.to_ascii_lowercase();
                l.contains("proxycommand") || l.contains("localcommand") || *t == "-F" || *t == "-S"
            })
            .map(str::to_string),
        "man" => long(&["pager", "html", "browser"]).or_else(|| {
            args.iter()
                .find(|w| matches!(w.text(), "-P" | "-H"))
                .map(|w| w.raw.clone())
        }),
        "less" | "more" => args
            .iter()
            .find(|w| w.text().starts_with('+'))
            .map(|w| w.raw.clone()),
        _ => None,
    };
    found.map(|what| format!("`{program}` runs code given by `{what}`"))
}

/// Whether an awk program redirects a `print` or `printf` into a file (`print "x" > "out"`, `printf "a" >> f`):
/// a `>` after `print`, outside strings and parentheses, before the statement ends.
fn awk_print_redirects(program: &str) -> bool {
    let bytes = program.as_bytes();
    let mut from = 0;
    while let Some(at) = program[from..].find("print") {
        let mut i = from + at + "print".len();
        from = i;
        let mut depth = 0i32;
        let mut in_string = false;
        while i < bytes.len() {
            let c = bytes[i];
            if in_string {
                if c == b'\\' {
                    i += 1;
                } else if c == b'"' {
                    in_string = false;
                }
            } else {
                match c {
                    b'"' => in_string = true,
                    b'(' => depth += 1,
                    b')' => depth -= 1,
                    b';' | b'}' | b'\n' => break,
                    b'>' if depth <= 0 => return true,
                    _ => {}
                }
            }
            i += 1;
        }
    }
    false
}

/// A `git -c KEY=VALUE` whose key can make git run a command (aliases with `!`, pagers, editors, hooks, helpers).
fn git_config_runs_code(args: &[Word]) -> Option<String> {
    let mut i = 0;
    while i < args.len() {
        let t = args[i].text();
        let value = if t == "-c" {
            i += 1;
            args.get(i).map(|w| w.text())
        } else if let Some(v) = t.strip_prefix("--config-env=") {
            Some(v)
        } else if t.starts_with("--exec-path") {
            return Some(t.to_string());
        } else if !t.starts_with('-') {
            return None;
        } else {
            None
        };
        if let Some(v) = value {
            let key = v.split('=').next().unwrap_or(v).to_ascii_lowercase();
            let safe = [
                "user.",
                "color.",
                "advice.",
                "init.defaultbranch",
                "core.quotepath",
                "log.",
                "safe.directory",
            ]
            .iter()
            .any(|s| key.starts_with(s));
            if !safe || v.contains('!') {
                return Some(format!("-c {v}"));
            }
        }
        i += 1;
    }
    None
}

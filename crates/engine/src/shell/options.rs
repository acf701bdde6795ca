//! Options that name files or run code, per command, read from the option table (`option_table`): `sort -o FILE`,
//! `cp -t DIR`, `tar -C DIR`, `dd of=FILE`, `--output=FILE`; and options whose code cannot be analysed at all
//! (`vim -c`, awk programs, `git -c` keys not in the git key table). Long options match by unambiguous prefix, as
//! GNU getopt reads them (`sort --out=x` is `--output=x`).

pub use super::option_table::abbreviates;
use super::option_table::{Role, options_of, table};
use super::word::Word;

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
    let mut files = Vec::new();
    let mut values = Vec::new();
    if program == "dd" {
        for (i, w) in words.iter().enumerate().skip(1) {
            if let Some((k, _)) = w.text().split_once('=')
                && matches!(k, "if" | "of")
            {
                files.push((i, k == "of"));
            }
        }
        return (files, values);
    }
    for f in options_of(program, words) {
        values.extend(f.value_at);
        let write = match f.opt.role {
            Role::Write => true,
            Role::Read => false,
            _ => continue,
        };
        files.push((f.value_at.unwrap_or(f.at), write));
    }
    // An output file given to a program the tables do not know (`--output=FILE`, `--log-file=FILE`).
    if table(program).0.is_empty() {
        for (i, w) in words.iter().enumerate().skip(1) {
            let t = w.text();
            if t == "--" {
                break;
            }
            if let Some((name, _)) = t.strip_prefix("--").and_then(|r| r.split_once('='))
                && ["output", "output-file", "log-file", "out-file", "outfile"]
                    .iter()
                    .any(|o| abbreviates(name, o) && name.len() >= 3)
            {
                files.push((i, true));
            }
        }
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

/// Why options of a command make it run code that the analysis cannot see, if they do (editor commands, awk
/// programs that run or write, `less +cmd`). Options whose value is a command are read by `carried`.
pub fn runs_code(program: &str, words: &[Word]) -> Option<String> {
    let args = &words[1.min(words.len())..];
    let found = match program {
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

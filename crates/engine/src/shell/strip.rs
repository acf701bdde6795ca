//! Stripping what does not change which program runs: leading wrappers (`timeout 30`, `nice -n 5`, `nohup`, ...)
//! and variable assignments, repeated until nothing changes (docs/permissions.md §3).

use super::word::Word;

/// Variables that only change display or build settings; an allow rule still matches past them.
pub fn is_safe_variable(name: &str) -> bool {
    matches!(
        name,
        "NODE_ENV"
            | "RUST_LOG"
            | "RUST_BACKTRACE"
            | "GOOS"
            | "GOARCH"
            | "CGO_ENABLED"
            | "PYTHONUNBUFFERED"
            | "PYTHONDONTWRITEBYTECODE"
            | "LANG"
            | "TERM"
            | "TZ"
            | "NO_COLOR"
            | "FORCE_COLOR"
    ) || (name.starts_with("LC_") && name.len() > 3)
}

/// Whether a word reads as `NAME=value`.
pub fn assignment_name(word: &Word) -> Option<&str> {
    let text = word.value.as_deref().unwrap_or(&word.raw);
    let (name, _) = text.split_once('=')?;
    let mut chars = name.chars();
    let first = chars.next()?;
    if (first.is_ascii_alphabetic() || first == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
    {
        Some(name)
    } else {
        None
    }
}

fn value(words: &[Word], i: usize) -> Option<&str> {
    words.get(i).and_then(|w| w.value.as_deref())
}

fn is_duration(text: &str) -> bool {
    let t = text.trim_end_matches(['s', 'm', 'h', 'd']);
    !t.is_empty() && t.chars().all(|c| c.is_ascii_digit() || c == '.')
}

/// How many leading words make up a wrapper at the start of `words`, or `None` when `words` does not start with
/// one. The program after the wrapper must exist.
pub fn wrapper_len(words: &[Word]) -> Option<usize> {
    let program = value(words, 0)?;
    let mut i = 1;
    match program {
        "time" => {
            while value(words, i) == Some("-p") {
                i += 1;
            }
        }
        "nohup" => {}
        "builtin" => {}
        "command" => {
            while let Some(flag) = value(words, i) {
                match flag {
                    "-p" => i += 1,
                    "-v" | "-V" => return None,
                    "--" => {
                        i += 1;
                        break;
                    }
                    _ => break,
                }
            }
        }
        "nice" => {
            while let Some(flag) = value(words, i) {
                if flag == "-n" || flag == "--adjustment" {
                    value(words, i + 1)?.parse::<i32>().ok()?;
                    i += 2;
                } else if let Some(n) = flag
                    .strip_prefix("--adjustment=")
                    .or_else(|| flag.strip_prefix("-n"))
                {
                    n.parse::<i32>().ok()?;
                    i += 1;
                } else if flag.len() > 1
                    && flag.starts_with('-')
                    && flag[1..].parse::<i32>().is_ok()
                {
                    i += 1;
                } else if flag == "--" {
                    i += 1;
                    break;
                } else if flag.starts_with('-') {
                    return None;
                } else {
                    break;
                }
            }
        }
        "timeout" => {
            loop {
                let flag = value(words, i)?;
                match flag {
                    "--preserve-status" | "--foreground" | "-v" | "--verbose" => i += 1,
                    "-s" | "--signal" | "-k" | "--kill-after" => {
                        value(words, i + 1)?;
                        i += 2;
                    }
                    "--" => {
                        i += 1;
                        break;
                    }
                    _ if flag.starts_with("--signal=") || flag.starts_with("--kill-after=") => {
                        i += 1
                    }
                    _ if flag.starts_with("-s") || flag.starts_with("-k") => i += 1,
                    _ if flag.starts_with('-') => return None,
                    _ => break,
                }
            }
            if !is_duration(value(words, i)?) {
                return None;
            }
            i += 1;
        }
        "stdbuf" => {
            while let Some(flag) = value(words, i) {
                match flag {
                    "-i" | "-o" | "-e" | "--input" | "--output" | "--error" => {
                        value(words, i + 1)?;
                        i += 2;
                    }
                    "--" => {
                        i += 1;
                        break;
                    }
                    _ if flag.starts_with("-i")
                        || flag.starts_with("-o")
                        || flag.starts_with("-e")
                        || flag.starts_with("--input=")
                        || flag.starts_with("--output=")
                        || flag.starts_with("--error=") =>
                    {
                        i += 1
                    }
                    _ if flag.starts_with('-') => return None,
                    _ => break,
                }
            }
        }
        "xargs" => {
            // Only bare xargs is stripped; with flags it is an exec wrapper.
            if value(words, 1).is_some_and(|w| w.starts_with('-')) {
                return None;
            }
        }
        _ => return None,
    }
    if i < words.len() { Some(i) } else { None }
}

/// Strips for allow rules.
pub fn strip_for_allow(words: &[Word]) -> usize {
    let mut start = 0;
    while let Some(n) = wrapper_len(&words[start..]) {
        start += n;
    }
    start
}

/// Strips for deny and ask rules: assignment-looking words and wrappers, in any order, until nothing changes.
/// Returns the start index and the names of the assignments met after a wrapper.
pub fn strip_for_deny(words: &[Word]) -> (usize, Vec<String>) {
    let mut start = 0;
    let mut env = Vec::new();
    loop {
        let before = start;
        while let Some(w) = words.get(start) {
            match assignment_name(w) {
                Some(name) if start + 1 < words.len() => {
                    env.push(name.to_string());
                    start += 1;
                }
                _ => break,
            }
        }
        // `xargs CMD` is left in place: the command it runs gets arguments from its input, which the analysis
        // of the wrapper's inner command stands for.
        while value(words, start) != Some("xargs")
            && let Some(n) = wrapper_len(&words[start..])
        {
            start += n;
        }
        if start == before {
            return (start, env);
        }
    }
}

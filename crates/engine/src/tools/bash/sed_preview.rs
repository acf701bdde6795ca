//! The diff a `sed -i` command would make, for the approval dialog: each file it names is fed, as it is now, to GNU
//! `sed --sandbox` (which refuses the `e`, `r` and `w` commands) with the same script and options but without
//! `-i`, under a timeout and size caps. Only commands whose every word is understood get a preview: anything else
//! (a script file, an unknown option, a file named by a variable or a glob, a script that runs or writes) gets
//! none, and nothing runs.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use tandem_protocol::FileDiff;

use crate::shell::{self, Word, base_name, sed_script_is_dangerous};

/// The largest file previewed.
const MAX_INPUT: u64 = 1024 * 1024;
/// The most output read from sed per file.
const MAX_OUTPUT: usize = 2 * 1024 * 1024;
/// How long sed may take per file.
const TIMEOUT: Duration = Duration::from_secs(2);
/// The most files previewed for one command.
const MAX_FILES: usize = 10;

/// The previews of every `sed -i` in `command` run in `cwd`; empty when any of them cannot be previewed safely.
pub fn previews(command: &str, cwd: &Path) -> Vec<FileDiff> {
    let analysis = shell::analyse(command);
    if analysis.unanalysable_reason().is_some() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for part in &analysis.parts {
        let argv = part.argv();
        if argv.first().map(|w| base_name(w.text())) != Some("sed") {
            continue;
        }
        let Some(plan) = plan(argv) else {
            if shell::sed_args(argv).in_place {
                return Vec::new();
            }
            continue;
        };
        for file in &plan.files {
            if out.len() >= MAX_FILES {
                return out;
            }
            match preview(&plan.args, &cwd.join(file)) {
                Some(diff) => out.push(diff),
                None => return Vec::new(),
            }
        }
    }
    out
}

/// What to run for one `sed -i`: its options and scripts without `-i`, and the files it edits.
#[derive(Debug, PartialEq, Eq)]
struct Plan {
    args: Vec<String>,
    files: Vec<String>,
}

/// The plan for `sed` with these words, or `None` when it is not an in-place edit every word of which is understood.
fn plan(argv: &[Word]) -> Option<Plan> {
    let words: Vec<&str> = argv
        .iter()
        .map(|w| w.is_static().then(|| w.text()))
        .collect::<Option<_>>()?;
    if argv.iter().any(|w| w.glob) {
        return None;
    }
    let mut args = vec!["--sandbox".to_string()];
    let mut positional = Vec::new();
    let mut in_place = false;
    let mut explicit = false;
    let mut i = 1;
    while i < words.len() {
        let w = words[i];
        match w {
            "-e" | "--expression" => {
                let script = *words.get(i + 1)?;
                args.extend(["-e".to_string(), script.to_string()]);
                explicit = true;
                i += 1;
            }
            "-E" | "-r" | "-n" | "-z" | "-s" | "-u" | "--posix" | "--regexp-extended"
            | "--quiet" | "--silent" | "--null-data" | "--separate" | "--unbuffered" => {
                args.push(w.to_string())
            }
            "--" => {
                positional.extend(words[i + 1..].iter().map(|s| s.to_string()));
                break;
            }
            _ if w == "-i" || w == "--in-place" || w.starts_with("--in-place=") => in_place = true,
            _ if w.starts_with("-i") && !w[2..].contains('/') => in_place = true,
            _ if w.starts_with("--expression=") => {
                args.extend(["-e".to_string(), w["--expression=".len()..].to_string()]);
                explicit = true;
            }
            _ if w.starts_with('-') && w != "-" => return None,
            _ => positional.push(w.to_string()),
        }
        i += 1;
    }
    if !in_place {
        return None;
    }
    let mut positional = positional.into_iter();
    if !explicit {
        args.extend(["-e".to_string(), positional.next()?]);
    }
    let files: Vec<String> = positional.collect();
    let scripts_ok = args
        .windows(2)
        .filter(|p| p[0] == "-e")
        .all(|p| !sed_script_is_dangerous(&p[1]));
    (scripts_ok && !files.is_empty() && files.iter().all(|f| f != "-"))
        .then_some(Plan { args, files })
}

/// Runs sed over the current content of `path`; `None` when the file cannot be read or sed fails.
fn preview(args: &[String], path: &Path) -> Option<FileDiff> {
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_file() || meta.len() > MAX_INPUT {
        return None;
    }
    let old = std::fs::read(path).ok()?;
    let new = run_sed(args, &old)?;
    Some(FileDiff {
        path: path.display().to_string(),
        old_text: String::from_utf8(old).ok()?,
        new_text: String::from_utf8(new).ok()?,
        is_new_file: false,
    })
}

/// Runs `sed ARGS` with `input` on standard input; its standard output, or `None` on failure, timeout or too much
/// output.
fn run_sed(args: &[String], input: &[u8]) -> Option<Vec<u8>> {
    let mut child = Command::new("sed")
        .args(args)
        .env("LC_ALL", "C.UTF-8")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let mut stdin = child.stdin.take()?;
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let mut stdout = child.stdout.take()?;
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        let _ = (&mut stdout)
            .take(MAX_OUTPUT as u64 + 1)
            .read_to_end(&mut out);
        out
    });
    let deadline = Instant::now() + TIMEOUT;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(5)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
        }
    };
    let _ = writer.join();
    let out = reader.join().ok()?;
    (status?.success() && out.len() <= MAX_OUTPUT).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(command: &str) -> Vec<Word> {
        shell::analyse(command).parts[0].argv().to_vec()
    }

    #[test]
    fn plans() {
        let p = plan(&words("sed -i 's/a/b/' x.txt y.txt")).expect("plan");
        assert_eq!(p.args, ["--sandbox", "-e", "s/a/b/"]);
        assert_eq!(p.files, ["x.txt", "y.txt"]);
        let p = plan(&words("sed -E -i.bak -e 's/(a)/\\1\\1/' -e '$d' f")).expect("plan");
        assert_eq!(
            p.args,
            ["--sandbox", "-E", "-e", "s/(a)/\\1\\1/", "-e", "$d"]
        );
        for none in [
            "sed 's/a/b/' f",
            "sed -i -f script.sed f",
            "sed -i 's/a/b/w out' f",
            "sed -i 's/a/b/e' f",
            "sed -i '1r /etc/passwd' f",
            "sed -i 's/a/b/' \"$F\"",
            "sed -i 's/a/b/' *.txt",
            "sed -i --follow-symlinks 's/a/b/' f",
            "sed -i 's/a/b/'",
            "sed -ni 's/a/b/p' f",
        ] {
            assert_eq!(plan(&words(none)), None, "{none}");
        }
    }
}

//! Folders a command reads every file under: recursive searches (`rg`, `grep -r`, `ag`, `ack`, `git grep`, `fd -x`),
//! patches of the repository's history (`git log -p`, `git format-patch`), archives and copies of folders
//! (`tar c`, `zip -r`, `cp -r`, `rsync -r`, `scp -r`), recursive diffs, and `find` running a command on what it
//! finds. A read deny rule on anything under such a folder applies to the command, though it never names the file.

use super::classify::{FileOps, file_ops};
use super::option_table::{git_subcommand_at, options_of};
use super::word::{Word, base_name};

/// A folder a command walks: a word naming it, or the folder the command runs in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Walked {
    /// The word at this index.
    Word(usize),
    /// The folder the command runs in (a search given no path, a repository-wide git command).
    Cwd,
}

fn has(words: &[Word], flags: &[&str], letters: &str) -> bool {
    words.iter().skip(1).any(|w| {
        let t = w.text();
        flags.contains(&t)
            || (!letters.is_empty()
                && t.starts_with('-')
                && !t.starts_with("--")
                && t[1..].chars().any(|c| letters.contains(c)))
    })
}

/// The operands of a search (the words that are neither options nor option values), without its pattern unless
/// one is given by option.
fn search_paths(program: &str, words: &[Word], pattern_options: &[&str]) -> Vec<usize> {
    let values: Vec<usize> = options_of(program, words)
        .iter()
        .filter_map(|f| f.value_at)
        .collect();
    let by_option = words.iter().any(|w| {
        let t = w.text();
        pattern_options
            .iter()
            .any(|o| t == *o || (o.starts_with("--") && t.starts_with(&format!("{o}="))))
    });
    let mut operands = Vec::new();
    let mut dashdash = false;
    for (i, w) in words.iter().enumerate().skip(1) {
        let t = w.text();
        if !dashdash && t == "--" {
            dashdash = true;
            continue;
        }
        if values.contains(&i) || (!dashdash && t.starts_with('-') && t != "-") {
            continue;
        }
        operands.push(i);
    }
    if !by_option && !operands.is_empty() {
        operands.remove(0);
    }
    operands
}

fn paths_or_cwd(paths: Vec<usize>) -> Vec<Walked> {
    if paths.is_empty() {
        vec![Walked::Cwd]
    } else {
        paths.into_iter().map(Walked::Word).collect()
    }
}

/// The folders `words` (the program first) reads every file under.
pub fn walked(words: &[Word]) -> Vec<Walked> {
    let Some(first) = words.first() else {
        return Vec::new();
    };
    let program = base_name(first.text());
    let reads = || file_ops(words).reads;
    match program {
        "rg" | "ag" | "ack" | "ack-grep" | "ugrep"
            if program != "ugrep" || has(words, &["--recursive"], "rR") =>
        {
            if program == "rg" && has(words, &["--files"], "") {
                return paths_or_cwd(search_paths("rg", words, &["--files"]));
            }
            paths_or_cwd(search_paths(
                program,
                words,
                &["-e", "-f", "--regexp", "--file"],
            ))
        }
        "grep" | "egrep" | "fgrep"
            if has(
                words,
                &[
                    "--recursive",
                    "--dereference-recursive",
                    "--directories=recurse",
                ],
                "rR",
            ) || words
                .windows(2)
                .any(|w| w[0].text() == "-d" && w[1].text() == "recurse") =>
        {
            paths_or_cwd(search_paths(
                "grep",
                words,
                &["-e", "-f", "--regexp", "--file"],
            ))
        }
        "fd" | "fdfind" if has(words, &["--exec", "--exec-batch"], "xX") => {
            let end = words
                .iter()
                .position(|w| matches!(w.text(), "-x" | "-X" | "--exec" | "--exec-batch"))
                .unwrap_or(words.len());
            paths_or_cwd(search_paths(program, &words[..end], &[]))
        }
        "find"
            if words
                .iter()
                .any(|w| matches!(w.text(), "-exec" | "-execdir" | "-ok" | "-okdir")) =>
        {
            paths_or_cwd(reads())
        }
        "git" => git_walks(words),
        "tar" | "gtar" | "bsdtar" if tar_creates(words) => {
            reads().into_iter().map(Walked::Word).collect()
        }
        "zip" if has(words, &["--recurse-paths"], "r") => {
            reads().into_iter().skip(1).map(Walked::Word).collect()
        }
        "cp" | "rsync" | "scp"
            if has(
                words,
                &["--recursive", "--archive"],
                if program == "scp" { "r" } else { "rRa" },
            ) =>
        {
            let FileOps { reads, writes, .. } = file_ops(words);
            reads
                .into_iter()
                .filter(|i| !writes.contains(i))
                .map(Walked::Word)
                .collect()
        }
        "diff" if has(words, &["--recursive"], "r") => {
            reads().into_iter().map(Walked::Word).collect()
        }
        _ => Vec::new(),
    }
}

/// Whether the command skips what `.gitignore` files exclude while it walks (ripgrep and ag unless told not to,
/// git's own commands).
pub fn respects_ignores(words: &[Word]) -> bool {
    let Some(first) = words.first() else {
        return false;
    };
    match base_name(first.text()) {
        "rg" | "ag" => !has(
            words,
            &[
                "--no-ignore",
                "--unrestricted",
                "--skip-vcs-ignores",
                "--no-ignore-vcs",
            ],
            "uU",
        ),
        "git" => !has(words, &["--no-index", "--no-exclude-standard"], ""),
        _ => false,
    }
}

/// Whether a tar command creates or adds to an archive (`c`, `r`, `u`), old-style letters included.
fn tar_creates(words: &[Word]) -> bool {
    words.iter().skip(1).enumerate().any(|(i, w)| {
        let t = w.text();
        matches!(t, "--create" | "--append" | "--update")
            || (t.starts_with('-') && !t.starts_with("--") && t[1..].contains(['c', 'r', 'u']))
            || (i == 0
                && !t.starts_with('-')
                && t.chars().all(|c| c.is_ascii_alphabetic())
                && t.contains(['c', 'r', 'u']))
    })
}

/// Git commands that print the content of many files: searches, patches, archives.
fn git_walks(words: &[Word]) -> Vec<Walked> {
    let Some((at, sub)) = git_subcommand_at(words) else {
        return Vec::new();
    };
    let rest = &words[at + 1..];
    let patch = rest.iter().any(|w| {
        matches!(
            w.text(),
            "-p" | "-u"
                | "--patch"
                | "--patch-with-stat"
                | "--patch-with-raw"
                | "-U"
                | "--full-diff"
        ) || w.text().starts_with("-U")
            || w.text().starts_with("--unified")
    });
    let walks = match sub {
        "grep" => true,
        "log" | "whatchanged" | "reflog" => patch,
        // Patches of a range of history, archives and bundles of the tree (one commit's `show` and the working
        // tree's `diff` are the read-only commands everyone runs; they walk nothing here).
        "format-patch" | "archive" | "bundle" => true,
        "stash" => rest.first().map(Word::text) == Some("show") && patch,
        _ => false,
    };
    if !walks {
        return Vec::new();
    }
    // Pathspecs after `--` limit the walk; without them the whole working tree is read.
    match rest.iter().position(|w| w.text() == "--") {
        Some(dash) if dash + 1 < rest.len() => (dash + 1..rest.len())
            .map(|i| Walked::Word(at + 1 + i))
            .collect(),
        _ => vec![Walked::Cwd],
    }
}

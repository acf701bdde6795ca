//! The files one part of a Bash command touches (redirections, file arguments, files named by options),
//! resolved against the folders `cd` may reach, globs expanded the way the shell would.

use std::path::{Path, PathBuf};

use super::super::PermissionContext;
use super::super::path_forms::PathForms;
use super::super::path_pattern::normalise;
use crate::fsutil::under_home;
use crate::shell::{self, Analysis, Part, RedirectKind, Word, file_ops, is_null_device};

/// A file a part touches, resolved.
#[derive(Debug)]
pub(super) struct Touch {
    /// `None` when the path is only known when the command runs.
    pub(super) forms: Option<PathForms>,
    pub(super) text: String,
    pub(super) write: bool,
    /// From a redirection (whose `~`, `$` or glob target always asks).
    pub(super) redirect: bool,
    /// The word had an unquoted glob, `~` or expansion.
    pub(super) vague: bool,
}

/// The directories a relative path may be resolved against: the start and every `cd` target seen.
pub(super) fn resolve(
    word: &Word,
    cwds: &[PathBuf],
    home: Option<&Path>,
) -> Vec<Option<PathForms>> {
    let text = shell::option_value(word.text());
    if word.value.is_none() {
        return vec![None];
    }
    // A glob: judge the literal directory before the first wildcard.
    let literal = match text.find(['*', '?', '[']) {
        Some(at) if word.glob => match text[..at].rfind('/') {
            Some(slash) => &text[..=slash],
            None => "",
        },
        _ => text,
    };
    let expanded: PathBuf = if let Some(rest) = under_home(literal).filter(|_| word.tilde) {
        match home {
            Some(h) => h.join(rest.trim_start_matches('/')),
            None => return vec![None],
        }
    } else if word.tilde {
        return vec![None];
    } else {
        PathBuf::from(if literal.is_empty() { "." } else { literal })
    };
    if expanded.is_absolute() {
        return vec![Some(PathForms::of(&expanded))];
    }
    if cwds.is_empty() {
        return vec![None];
    }
    cwds.iter()
        .map(|cwd| Some(PathForms::of(&cwd.join(&expanded))))
        .collect()
}

/// Most paths a glob is expanded to before the decision gives up on it.
const MAX_GLOB_MATCHES: usize = 512;

/// Expands an unquoted glob the way the shell would (one directory level per segment, no dot files unless the
/// segment starts with a dot). `None` when it cannot be expanded here (too many matches, `~`).
pub(super) fn expand_glob(text: &str, cwd: &Path) -> Option<Vec<PathBuf>> {
    let absolute = text.starts_with('/');
    let mut current: Vec<PathBuf> = vec![if absolute {
        PathBuf::from("/")
    } else {
        cwd.to_path_buf()
    }];
    for segment in text.split('/').filter(|s| !s.is_empty()) {
        let is_glob = segment.contains(['*', '?', '[']);
        let mut next = Vec::new();
        for base in &current {
            if !is_glob {
                next.push(base.join(segment));
                continue;
            }
            let matcher = globset::GlobBuilder::new(segment)
                .literal_separator(true)
                .build()
                .ok()?
                .compile_matcher();
            let Ok(entries) = std::fs::read_dir(base) else {
                continue;
            };
            for entry in entries.flatten() {
                let name = entry.file_name();
                let name = name.to_string_lossy();
                if name.starts_with('.') && !segment.starts_with('.') {
                    continue;
                }
                if matcher.is_match(name.as_ref()) {
                    next.push(base.join(name.as_ref()));
                    if next.len() > MAX_GLOB_MATCHES {
                        return None;
                    }
                }
            }
        }
        current = next;
    }
    Some(current)
}

pub(super) fn touches(part: &Part, cwds: &[PathBuf], home: Option<&Path>) -> Vec<Touch> {
    let mut out = Vec::new();
    for r in &part.cmd.redirects {
        let write = match r.kind {
            RedirectKind::Write => true,
            RedirectKind::Read => false,
            _ => continue,
        };
        let Some(target) = &r.target else { continue };
        if is_null_device(target.text()) {
            continue;
        }
        let vague = target.value.is_none() || target.glob || target.tilde;
        for forms in resolve(target, cwds, home) {
            out.push(Touch {
                forms,
                text: target.raw.clone(),
                write,
                redirect: true,
                vague,
            });
        }
    }
    // Files variables make the program write (`GIT_TRACE=/tmp/t`, `LESSHISTFILE=…`), `export` included.
    let program_at = if part.cmd.keyword {
        0
    } else {
        shell::strip_for_deny(&part.cmd.words).0
    };
    let assigned = shell::assignments(&part.cmd.assignments, &part.cmd.words, program_at);
    for (what, word) in shell::variable_writes(&assigned) {
        let vague = word.value.is_none() || word.glob;
        for forms in resolve(&word, cwds, home) {
            out.push(Touch {
                forms,
                text: what.clone(),
                write: true,
                redirect: false,
                vague,
            });
        }
    }
    let argv = part.argv();
    if argv.is_empty() || part.cmd.keyword {
        return out;
    }
    let ops = file_ops(argv);
    for &i in &ops.unknown_writes {
        out.push(Touch {
            forms: None,
            text: format!("the files `{}` lets it write", argv[i].raw),
            write: true,
            redirect: false,
            vague: true,
        });
    }
    for word in &ops.backups {
        for forms in resolve(word, cwds, home) {
            out.push(Touch {
                forms,
                text: format!("{} (a backup copy)", word.raw),
                write: true,
                redirect: false,
                vague: word.value.is_none(),
            });
        }
    }
    for (indexes, write) in [(&ops.reads, false), (&ops.writes, true)] {
        for &i in indexes {
            let Some(word) = argv.get(i) else { continue };
            if word.glob
                && !word.tilde
                && let Some(text) = word.value.as_deref()
            {
                let expanded: Option<Vec<PathBuf>> = cwds
                    .iter()
                    .map(|cwd| expand_glob(text, cwd))
                    .collect::<Option<Vec<_>>>()
                    .map(|v| v.into_iter().flatten().collect());
                if let Some(paths) = expanded {
                    // No match: the shell passes the word as it is.
                    let literal = if paths.is_empty() {
                        resolve(&Word::literal(text), cwds, home)
                    } else {
                        paths.iter().map(|p| Some(PathForms::of(p))).collect()
                    };
                    for forms in literal {
                        out.push(Touch {
                            forms,
                            text: word.raw.clone(),
                            write,
                            redirect: false,
                            vague: false,
                        });
                    }
                    continue;
                }
            }
            let vague = word.value.is_none() || word.glob;
            for forms in resolve(word, cwds, home) {
                out.push(Touch {
                    forms,
                    text: word.raw.clone(),
                    write,
                    redirect: false,
                    vague,
                });
            }
        }
    }
    out
}

/// A file inside `forms` (as if it were a folder): deny and ask rules on a folder's contents (`secrets/**`) then
/// cover a command given the folder itself (`grep -r x secrets`, `ls secrets`).
pub(super) fn child_of(forms: &PathForms) -> PathForms {
    PathForms {
        lexical: forms.lexical.join("x"),
        resolved: forms.resolved.join("x"),
    }
}

/// Paths `cd` may move to, in order, starting with the context's directory, and whether a `cd`, `pushd` or
/// `popd` goes somewhere only known when it runs (relative paths are then unknown too).
pub(super) fn cwd_candidates(ctx: &PermissionContext, analysis: &Analysis) -> (Vec<PathBuf>, bool) {
    let mut cwds = vec![ctx.cwd.clone()];
    let mut unknown = false;
    for part in &analysis.parts {
        let program = part.program();
        if matches!(program, Some("pushd" | "popd")) {
            unknown = true;
        }
        if program != Some("cd") {
            continue;
        }
        let target = part.argv()[1..]
            .iter()
            .find(|w| !matches!(w.text(), "-L" | "-P" | "-e" | "-@" | "--"));
        let Some(w) = target else {
            match ctx.home.clone() {
                Some(home) if !cwds.contains(&home) => cwds.push(home),
                Some(_) => {}
                None => unknown = true,
            }
            continue;
        };
        let home_dir = w.tilde && w.text() == "~";
        match w.value.as_deref() {
            Some(v) if w.is_static() && !w.tilde && v != "-" => {
                let next: Vec<PathBuf> = cwds.iter().map(|c| normalise(&c.join(v))).collect();
                for n in next {
                    if !cwds.contains(&n) {
                        cwds.push(n);
                    }
                }
            }
            _ if home_dir && ctx.home.is_some() => {
                if let Some(home) = ctx.home.clone()
                    && !cwds.contains(&home)
                {
                    cwds.push(home);
                }
            }
            _ => unknown = true,
        }
    }
    (cwds, unknown)
}

/// Programs whose file arguments `file_ops` lists completely (or which take no file arguments).
const FILES_KNOWN: &[&str] = &[
    "cat",
    "head",
    "tail",
    "less",
    "more",
    "wc",
    "stat",
    "file",
    "sort",
    "cut",
    "diff",
    "du",
    "ls",
    "nl",
    "od",
    "xxd",
    "hexdump",
    "strings",
    "md5sum",
    "sha1sum",
    "sha256sum",
    "base64",
    "tac",
    "cmp",
    "tree",
    "readlink",
    "realpath",
    "uniq",
    "grep",
    "egrep",
    "fgrep",
    "rg",
    "ag",
    "ack",
    "jq",
    "awk",
    "find",
    "cp",
    "ln",
    "install",
    "rsync",
    "mv",
    "rm",
    "rmdir",
    "touch",
    "mkdir",
    "tee",
    "truncate",
    "shred",
    "unlink",
    "chmod",
    "chown",
    "chgrp",
    "sed",
    "dd",
    "echo",
    "printf",
    "true",
    "false",
    ":",
    "test",
    "[",
    "[[",
    "cd",
    "pwd",
    "which",
    "type",
    "export",
    "declare",
    "local",
    "readonly",
    "unset",
    "typeset",
];

/// Paths a part names without the analysis knowing what its program does with them (an unrecognised program's
/// arguments, the value of `--opt=value`, the path of `REV:path` or `@file`): a deny rule on one of them cannot
/// be ruled out.
pub(super) fn mentions(
    part: &Part,
    cwds: &[PathBuf],
    home: Option<&Path>,
) -> Vec<(String, PathForms)> {
    let argv = part.argv();
    let Some(first) = argv.first() else {
        return Vec::new();
    };
    if part.cmd.keyword || FILES_KNOWN.contains(&shell::base_name(first.text())) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for w in &argv[1..] {
        let Some(text) = w.value.as_deref() else {
            continue;
        };
        let text = if text.starts_with('-') {
            match text.split_once('=') {
                Some((_, v)) => v,
                None => continue,
            }
        } else {
            text
        };
        let mut candidates = vec![text.trim_start_matches('@')];
        if let Some((_, after)) = text.split_once(':') {
            candidates.push(after);
        }
        for c in candidates.into_iter().filter(|c| !c.is_empty()) {
            let word = Word {
                value: Some(c.to_string()),
                raw: c.to_string(),
                tilde: c.starts_with('~'),
                ..Word::default()
            };
            for forms in resolve(&word, cwds, home).into_iter().flatten() {
                out.push((w.raw.clone(), forms));
            }
        }
    }
    out
}

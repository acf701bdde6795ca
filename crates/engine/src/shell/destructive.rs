//! What a command would destroy, said in one sentence per part for the approval dialog: `rm -r`, `git reset
//! --hard`, forced pushes, `git clean -f`, discarding checkouts and restores, `dd of=`, `mkfs`, `shred`,
//! `truncate`, SQL `DROP`/`TRUNCATE` given to psql, mysql or sqlite3, and `>` over an existing file. Every part is
//! looked at, nested ones (`bash -c`, `sudo`, `env`, pipelines, lists) included.

use std::path::Path;

use super::{Part, RedirectKind, analyse, base_name, is_null_device};

/// The warnings for `command` run in `cwd` (used to tell whether a `>` target exists), each once, in order.
pub fn destructive_warnings(command: &str, cwd: &Path) -> Vec<String> {
    let analysis = analyse(command);
    let mut out: Vec<String> = Vec::new();
    for part in &analysis.parts {
        for w in part_warnings(part, cwd) {
            if !out.contains(&w) {
                out.push(w);
            }
        }
    }
    out
}

fn part_warnings(part: &Part, cwd: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for r in &part.cmd.redirects {
        let Some(target) = &r.target else { continue };
        let name = target.text();
        if r.kind != RedirectKind::Write
            || r.op.contains(">>")
            || r.op == "<>"
            || r.op.starts_with(">&") && name.chars().all(|c| c.is_ascii_digit() || c == '-')
            || is_null_device(name)
            || !target.is_static()
        {
            continue;
        }
        let path = cwd.join(name);
        if path.metadata().is_ok_and(|m| m.is_file() && m.len() > 0) {
            out.push(format!(
                "`{} {name}` replaces the existing file {name}: its current content is lost",
                r.op
            ));
        }
    }
    let words: Vec<&str> = part.argv().iter().map(|w| w.text()).collect();
    let Some((program, args)) = words.split_first() else {
        return out;
    };
    let program = base_name(program);
    let operands: Vec<&str> = args
        .iter()
        .copied()
        .filter(|a| !a.starts_with('-'))
        .collect();
    let list = |items: &[&str]| items.join(", ");
    let warning = match program {
        "rm" => rm(args),
        "git" => git(args),
        "dd" => args
            .iter()
            .find_map(|a| a.strip_prefix("of="))
            .filter(|of| !is_null_device(of))
            .map(|of| format!("`dd` overwrites {of} with raw data, from its first byte")),
        p if p == "mkfs" || p.starts_with("mkfs.") || p == "mke2fs" => Some(format!(
            "`{p}` creates a new filesystem on {}, erasing everything on it",
            operands.last().copied().unwrap_or("the device")
        )),
        "wipefs" => Some(format!(
            "`wipefs` erases the filesystem signatures of {}",
            list(&operands)
        )),
        "shred" if !operands.is_empty() => Some(format!(
            "`shred` overwrites {} so that the content cannot be recovered{}",
            list(&operands),
            if args.iter().any(|a| *a == "-u"
                || a.starts_with("--remove")
                || (a.starts_with('-') && !a.starts_with("--") && a.contains('u')))
            {
                ", then deletes it"
            } else {
                ""
            }
        )),
        "truncate" if !operands.is_empty() => {
            let files: Vec<&str> = truncate_files(args);
            (!files.is_empty()).then(|| {
                format!(
                    "`truncate` changes the size of {}: content past the new size is lost",
                    list(&files)
                )
            })
        }
        "psql" | "mysql" | "mariadb" | "sqlite3" => sql(program, args),
        _ => None,
    };
    out.extend(warning);
    out
}

/// `truncate`'s file operands (the value of `-s`/`-r` is not a file).
fn truncate_files<'a>(args: &[&'a str]) -> Vec<&'a str> {
    let mut files = Vec::new();
    let mut skip = false;
    for a in args {
        if skip {
            skip = false;
            continue;
        }
        if matches!(*a, "-s" | "-r" | "--size" | "--reference") {
            skip = true;
        } else if !a.starts_with('-') {
            files.push(*a);
        }
    }
    files
}

fn rm(args: &[&str]) -> Option<String> {
    let mut recursive = false;
    let mut force = false;
    let mut targets = Vec::new();
    let mut options_done = false;
    for a in args {
        if options_done || !a.starts_with('-') || *a == "-" {
            targets.push(*a);
        } else if *a == "--" {
            options_done = true;
        } else if let Some(long) = a.strip_prefix("--") {
            recursive |= long == "recursive";
            force |= long == "force";
        } else {
            recursive |= a.contains('r') || a.contains('R');
            force |= a.contains('f');
        }
    }
    if targets.is_empty() {
        return None;
    }
    // `xargs rm` and the like: the analysis stands `(input)` for what the command is given at run time.
    let targets: Vec<&str> = targets
        .into_iter()
        .map(|t| {
            if t.contains("(input)") {
                "the paths it reads from its input"
            } else {
                t
            }
        })
        .collect();
    let force = if force { ", without asking" } else { "" };
    Some(if recursive {
        format!(
            "`rm` deletes {} and everything inside{force}; it does not go to the trash",
            targets.join(", ")
        )
    } else {
        format!(
            "`rm` deletes {}{force}; it does not go to the trash",
            targets.join(", ")
        )
    })
}

fn git(args: &[&str]) -> Option<String> {
    // Skip global options (`-C dir`, `-c k=v`, `--git-dir=…`).
    let mut i = 0;
    while i < args.len() && args[i].starts_with('-') {
        i += if matches!(args[i], "-C" | "-c") { 2 } else { 1 };
    }
    let (sub, rest) = (args.get(i)?, args.get(i + 1..).unwrap_or(&[]));
    let has = |f: &str| rest.contains(&f);
    let operands: Vec<&str> = rest
        .iter()
        .copied()
        .filter(|a| !a.starts_with('-'))
        .collect();
    match *sub {
        "reset" if has("--hard") => Some(format!(
            "`git reset --hard` discards every uncommitted change to tracked files{}",
            operands
                .first()
                .map(|c| format!(" and moves the branch to {c}; commits only reachable from the old position are left dangling"))
                .unwrap_or_default()
        )),
        "push" => {
            let lease = rest.iter().any(|a| a.starts_with("--force-with-lease"));
            let force = rest.iter().any(|a| {
                *a == "-f" || *a == "--force" || (a.starts_with('-') && !a.starts_with("--") && a.contains('f'))
            }) || operands.iter().skip(1).any(|r| r.starts_with('+'));
            let remote = operands.first().copied().unwrap_or("the remote");
            if force {
                Some(format!(
                    "`git push --force` overwrites the branch on {remote}: commits there that are not in yours are lost"
                ))
            } else if lease {
                Some(format!(
                    "`git push --force-with-lease` overwrites the branch on {remote} (unless it moved since your last fetch): commits there that are not in yours are lost"
                ))
            } else {
                None
            }
        }
        "clean" => {
            let flags: String = rest
                .iter()
                .filter(|a| a.starts_with('-') && !a.starts_with("--"))
                .map(|a| &a[1..])
                .collect();
            let force = flags.contains('f') || has("--force");
            let dry = flags.contains('n') || has("--dry-run");
            (force && !dry).then(|| {
                let what = if flags.contains('d') { "untracked files and folders" } else { "untracked files" };
                let ignored = if flags.contains('x') {
                    ", ignored ones included (build outputs, .env files)"
                } else if flags.contains('X') {
                    " that git ignores (build outputs, .env files)"
                } else {
                    ""
                };
                format!("`git clean` deletes {what}{ignored}; they are not in git, so they cannot be brought back")
            })
        }
        "checkout" => {
            let dash = rest.iter().position(|a| *a == "--");
            let paths: Vec<&str> = match dash {
                Some(d) => rest[d + 1..].to_vec(),
                None if rest.contains(&".") => vec!["."],
                None => Vec::new(),
            };
            let forced = has("-f") || has("--force");
            if !paths.is_empty() {
                Some(format!(
                    "`git checkout` discards the uncommitted changes to {}",
                    describe_paths(&paths)
                ))
            } else {
                forced.then(|| "`git checkout --force` discards uncommitted changes that stand in its way".to_string())
            }
        }
        "restore" => {
            let staged_only = (has("--staged") || has("-S")) && !(has("--worktree") || has("-W"));
            let paths: Vec<&str> = operands.clone();
            (!staged_only && !paths.is_empty()).then(|| {
                format!(
                    "`git restore` discards the uncommitted changes to {}",
                    describe_paths(&paths)
                )
            })
        }
        "branch" if has("-D") || (has("-d") && has("--force")) => Some(format!(
            "`git branch -D` deletes {} even if not merged: its commits are left dangling",
            operands.first().copied().unwrap_or("the branch")
        )),
        "stash" if has("drop") || has("clear") => Some(
            "`git stash drop`/`clear` deletes stashed changes".to_string(),
        ),
        _ => None,
    }
}

fn describe_paths(paths: &[&str]) -> String {
    if paths.iter().any(|p| *p == "." || *p == ":/" || *p == "*") {
        "every file in the folder".to_string()
    } else {
        paths.join(", ")
    }
}

/// `DROP TABLE|DATABASE|SCHEMA|VIEW|INDEX` and `TRUNCATE` in the SQL given on the command line.
fn sql(program: &str, args: &[&str]) -> Option<String> {
    let text = args.join(" ");
    let upper = text.to_ascii_uppercase();
    let words: Vec<&str> = upper
        .split(|c: char| c.is_whitespace() || c == ';' || c == '(' || c == '"' || c == '\'')
        .filter(|w| !w.is_empty())
        .collect();
    let originals: Vec<&str> = text
        .split(|c: char| c.is_whitespace() || c == ';' || c == '(' || c == '"' || c == '\'')
        .filter(|w| !w.is_empty())
        .collect();
    for (i, w) in words.iter().enumerate() {
        let next = words.get(i + 1).copied().unwrap_or("");
        let (what, skip) = match (*w, next) {
            ("DROP", "TABLE" | "DATABASE" | "SCHEMA" | "VIEW") => (next, 2),
            ("TRUNCATE", "TABLE") => ("TRUNCATE", 2),
            ("TRUNCATE", n) if !n.is_empty() => ("TRUNCATE", 1),
            _ => continue,
        };
        let mut j = i + skip;
        if words.get(j) == Some(&"IF") {
            j += 2;
        }
        let name = originals.get(j).copied().unwrap_or("?");
        return Some(if what == "TRUNCATE" {
            format!("`{program}` runs TRUNCATE on {name}: every row of the table is deleted")
        } else {
            format!(
                "`{program}` runs DROP {what} {name}: the {} and all its data are deleted",
                what.to_ascii_lowercase()
            )
        });
    }
    None
}

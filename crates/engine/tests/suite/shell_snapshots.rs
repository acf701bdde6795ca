//! Snapshot of the shell analysis over `tests/corpus/shell.txt`: for each command, the parts found (however
//! nested), their assignments, words, what allow and deny rules see, wrappers, class, redirections and paths.
//! One snapshot for the corpus, so that a change to the analysis is reviewed as a diff
//! (`cargo insta review`, or compare the `.snap.new` file written next to the snapshot).

use std::fmt::Write as _;

use tandem_engine::shell::{
    Part, RedirectKind, Word, analyse, file_ops, is_read_only, read_only_paths, summary,
};

const CORPUS: &str = include_str!("../corpus/shell.txt");

/// The commands of the corpus: one a line, `⏎` standing for a newline; `#` lines, blank lines and a trailing
/// ` # SUSPECT: ...` note are not part of them.
fn commands(corpus: &str) -> Vec<String> {
    corpus
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let command = l.split_once(" # SUSPECT:").map_or(l, |(c, _)| c);
            command.trim_end().replace('⏎', "\n")
        })
        .collect()
}

fn word(w: &Word) -> String {
    let mut out = match &w.value {
        Some(v) if *v == w.raw => format!("[{v}"),
        Some(v) => format!("[{v} ={}", w.raw),
        None => format!("[?{}", w.raw),
    };
    for (flag, name) in [(w.glob, "glob"), (w.tilde, "tilde"), (w.ifs, "ifs")] {
        if flag {
            out.push(' ');
            out.push_str(name);
        }
    }
    out.push(']');
    out
}

fn words(ws: &[Word]) -> String {
    if ws.is_empty() {
        return "(none)".into();
    }
    ws.iter().map(word).collect::<Vec<_>>().join(" ")
}

fn indexed(argv: &[Word], at: &[usize]) -> String {
    at.iter()
        .filter_map(|&i| argv.get(i))
        .map(word)
        .collect::<Vec<_>>()
        .join(" ")
}

fn part(out: &mut String, n: usize, p: &Part) {
    let mut flags = vec![format!("depth {}", p.cmd.depth)];
    if p.deny_only {
        flags.push("deny-only".into());
    }
    if p.cmd.keyword {
        flags.push("keyword".into());
    }
    let _ = writeln!(out, "  part {n} ({})", flags.join(", "));
    if !p.cmd.assignments.is_empty() {
        let list: Vec<String> = p.cmd.assignments.iter().map(|a| a.raw.clone()).collect();
        let safety = if p.env_safe { "safe" } else { "not safe" };
        let _ = writeln!(out, "    assigns   {} ({safety})", list.join(" "));
    }
    let _ = writeln!(out, "    words     {}", words(&p.cmd.words));
    if !p.text.is_empty() {
        let _ = writeln!(out, "    allow     {} (from word {})", p.text, p.start);
    }
    for text in &p.deny_texts {
        let _ = writeln!(out, "    deny      {text}");
    }
    let _ = writeln!(out, "    class     {:?}", p.class);
    if let Some(why) = p.exec_wrapper {
        let _ = writeln!(out, "    wrapper   {why}");
    }
    if let Some(why) = &p.unanalysable {
        let _ = writeln!(out, "    opaque    {why}");
    }
    for r in &p.cmd.redirects {
        let kind = match r.kind {
            RedirectKind::Write => "write",
            RedirectKind::Read => "read",
            RedirectKind::Duplicate => "duplicate",
            RedirectKind::Input => "input",
        };
        let target = r.target.as_ref().map(word).unwrap_or_default();
        let _ = writeln!(out, "    redirect  {} {target} ({kind})", r.op);
    }
    let argv = p.argv();
    if !argv.is_empty() && !p.cmd.keyword {
        let ops = file_ops(argv);
        if !ops.reads.is_empty() {
            let _ = writeln!(out, "    reads     {}", indexed(argv, &ops.reads));
        }
        if !ops.writes.is_empty() {
            let _ = writeln!(out, "    writes    {}", indexed(argv, &ops.writes));
        }
        if is_read_only(argv) {
            let paths = read_only_paths(argv);
            if paths.is_empty() {
                let _ = writeln!(out, "    read-only, no paths");
            } else {
                let _ = writeln!(out, "    read-only, paths {}", indexed(argv, &paths));
            }
        }
    }
}

fn render(command: &str) -> String {
    let mut out = format!("$ {}\n", command.replace('\n', "⏎"));
    let analysis = analyse(command);
    if let Some(why) = &analysis.unanalysable {
        let _ = writeln!(out, "  opaque    {why}");
    }
    let s = summary(command);
    let mut traits = Vec::new();
    for (flag, name) in [
        (s.read_only, "read-only"),
        (s.has_search, "search"),
        (s.has_read, "read"),
        (s.has_list, "list"),
    ] {
        if flag {
            traits.push(name);
        }
    }
    if traits.is_empty() {
        traits.push("writes or runs");
    }
    let _ = writeln!(out, "  summary   {}", traits.join(", "));
    for (i, p) in analysis.parts.iter().enumerate() {
        part(&mut out, i + 1, p);
    }
    out
}

#[test]
fn the_shell_corpus_matches_its_snapshot() {
    let commands = commands(CORPUS);
    assert!(commands.len() >= 250, "the corpus has {}", commands.len());
    let rendered: Vec<String> = commands.iter().map(|c| render(c)).collect();
    insta::with_settings!({
        snapshot_path => "../snapshots",
        prepend_module_to_snapshot => false,
        omit_expression => true,
        description => "tests/corpus/shell.txt through tandem_engine::shell",
    }, {
        insta::assert_snapshot!("shell_corpus", rendered.join("\n"));
    });
}

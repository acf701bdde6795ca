//! The Bash tool's permission check (spec/permissions.md §3): every subcommand, nested ones included, against
//! deny, ask and allow rules; file arguments and redirections against path rules and protected paths; built-in
//! read-only commands; what cannot be analysed asks.

use std::path::{Path, PathBuf};

use serde_json::Value;
use tandem_protocol::{DecisionBehavior, DecisionSource, PermissionMode, SafetyCheck};

use super::PermissionContext;
use super::path_pattern::normalise;
use super::rule::RuleBehavior;
use super::rule_id::RuleId;
use super::safety::critical_for_rm;
use super::suggest;
use super::verdict::{
    Evaluation, PathForms, Want, by_check, by_mode, by_the_mode, common, families, path_rule,
    protected_write,
};
use crate::shell::{
    self, Analysis, Part, RedirectKind, Word, base_name, file_ops, is_null_device, is_read_only,
    read_only_paths,
};

/// A file a part touches, resolved.
#[derive(Debug)]
struct Touch {
    /// `None` when the path is only known when the command runs.
    forms: Option<PathForms>,
    text: String,
    write: bool,
    /// From a redirection (whose `~`, `$` or glob target always asks).
    redirect: bool,
    /// The word had an unquoted glob, `~` or expansion.
    vague: bool,
}

/// The directories a relative path may be resolved against: the start and every `cd` target seen.
fn resolve(word: &Word, cwds: &[PathBuf], home: Option<&Path>) -> Vec<Option<PathForms>> {
    let text = word.text();
    let text = if text.starts_with('-') {
        text.split_once('=').map(|(_, v)| v).unwrap_or(text)
    } else {
        text
    };
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
    let expanded: PathBuf = if word.tilde && (literal == "~" || literal.starts_with("~/")) {
        match home {
            Some(h) => h.join(literal.trim_start_matches('~').trim_start_matches('/')),
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
    cwds.iter()
        .map(|cwd| Some(PathForms::of(&cwd.join(&expanded))))
        .collect()
}

/// Most paths a glob is expanded to before the decision gives up on it.
const MAX_GLOB_MATCHES: usize = 512;

/// Expands an unquoted glob the way the shell would (one directory level per segment, no dot files unless the
/// segment starts with a dot). `None` when it cannot be expanded here (too many matches, `~`).
fn expand_glob(text: &str, cwd: &Path) -> Option<Vec<PathBuf>> {
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

fn touches(part: &Part, cwds: &[PathBuf], home: Option<&Path>) -> Vec<Touch> {
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
    let argv = part.argv();
    if argv.is_empty() || part.cmd.keyword {
        return out;
    }
    let ops = file_ops(argv);
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
fn child_of(forms: &PathForms) -> PathForms {
    PathForms {
        lexical: forms.lexical.join("x"),
        resolved: forms.resolved.join("x"),
    }
}

/// Matches a part against the Bash patterns of list `b`.
fn bash_rule(ctx: &PermissionContext, b: RuleBehavior, part: &Part) -> Option<RuleId> {
    bash_rule_with(ctx, b, part, part.exec_wrapper.is_some())
}

/// Matches a part against the Bash patterns of list `b`; `exact_only`: only a rule without wildcards may approve it.
fn bash_rule_with(
    ctx: &PermissionContext,
    b: RuleBehavior,
    part: &Part,
    exact_only: bool,
) -> Option<RuleId> {
    let index = ctx.rules.bash(b);
    if index.is_empty() {
        return None;
    }
    if b == RuleBehavior::Allow {
        if !part.env_safe {
            return None;
        }
        let accept = |p: &super::bash_pattern::BashPattern| !exact_only || p.is_exact();
        let full = (exact_only).then(|| {
            part.cmd
                .words
                .iter()
                .map(|w| w.raw.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        });
        return [Some(&part.text), Some(&part.raw), full.as_ref()]
            .into_iter()
            .flatten()
            .filter_map(|t| index.find(t, accept))
            .min();
    }
    std::iter::once(&part.text)
        .chain(part.deny_texts.iter())
        .filter_map(|t| index.find(t, |_| true))
        .min()
}

/// Paths `cd` may move to, in order, starting with the context's directory.
fn cwd_candidates(ctx: &PermissionContext, analysis: &Analysis) -> Vec<PathBuf> {
    let mut cwds = vec![ctx.cwd.clone()];
    for part in &analysis.parts {
        if part.program() == Some("cd")
            && let Some(w) = part.argv().get(1)
            && w.is_static()
            && !w.tilde
            && let Some(v) = w.value.as_deref()
            && v != "-"
        {
            let next: Vec<PathBuf> = cwds.iter().map(|c| normalise(&c.join(v))).collect();
            for n in next {
                if !cwds.contains(&n) {
                    cwds.push(n);
                }
            }
        }
    }
    cwds
}

/// Answers the permission question for one Bash command.
pub fn evaluate_bash(
    ctx: &PermissionContext,
    tool: &str,
    input: &Value,
    command: &str,
) -> Evaluation {
    let analysis = shell::analyse(command);
    let home = ctx.home.as_deref();
    let cwds = cwd_candidates(ctx, &analysis);
    let all_touches: Vec<Vec<Touch>> = analysis
        .parts
        .iter()
        .map(|p| touches(p, &cwds, home))
        .collect();

    // 1. Deny rules: any subcommand, any file it touches.
    for part in &analysis.parts {
        if let Some(id) = bash_rule(ctx, RuleBehavior::Deny, part) {
            return Evaluation::by_rule(ctx, id, &format!("`{}`", part.text));
        }
    }
    if analysis.parts.is_empty()
        && analysis.unanalysable.is_some()
        && let Some(id) = ctx
            .rules
            .bash(RuleBehavior::Deny)
            .find(command.trim(), |_| true)
    {
        return Evaluation::by_rule(ctx, id, "the command");
    }
    for touch in all_touches.iter().flatten() {
        if let Some(forms) = &touch.forms {
            let fams = families("Bash", touch.write, RuleBehavior::Deny);
            let fams: Vec<&str> = fams.into_iter().filter(|f| *f != "Bash").collect();
            if let Some(id) = path_rule(ctx, RuleBehavior::Deny, &fams, forms)
                .or_else(|| path_rule(ctx, RuleBehavior::Deny, &fams, &child_of(forms)))
            {
                let verb = if touch.write { "writing" } else { "reading" };
                return Evaluation::by_rule(
                    ctx,
                    id,
                    &format!("{verb} {}", forms.lexical.display()),
                );
            }
        }
    }

    // 2. Safety checks: rm aimed at critical paths, writes to protected paths.
    for part in &analysis.parts {
        if let Some(e) = critical_rm(ctx, part, &cwds) {
            return e;
        }
    }
    for touch in all_touches.iter().flatten().filter(|t| t.write) {
        if let Some(forms) = &touch.forms
            && let Some(e) = protected_write(ctx, forms)
        {
            return e;
        }
    }

    // 3. Ask rules.
    if let Some(e) = common(ctx, tool, input, RuleBehavior::Ask) {
        return e;
    }
    for part in &analysis.parts {
        if let Some(id) = bash_rule(ctx, RuleBehavior::Ask, part) {
            return Evaluation::by_rule(ctx, id, &format!("`{}`", part.text));
        }
    }
    for touch in all_touches.iter().flatten() {
        if let Some(forms) = &touch.forms {
            let fam: &[&str] = if touch.write { &["Edit"] } else { &["Read"] };
            if let Some(id) = path_rule(ctx, RuleBehavior::Ask, fam, forms)
                .or_else(|| path_rule(ctx, RuleBehavior::Ask, fam, &child_of(forms)))
            {
                let verb = if touch.write { "writing" } else { "reading" };
                return Evaluation::by_rule(
                    ctx,
                    id,
                    &format!("{verb} {}", forms.lexical.display()),
                );
            }
        }
    }

    // 4. What cannot be analysed is never allowed by a rule.
    if let Some(why) = analysis.unanalysable_reason() {
        return by_mode(
            ctx,
            Want::Other,
            format!("the command cannot be analysed ({why}), so no rule can approve it"),
        );
    }

    // 5. Every subcommand must be allowed.
    let has_cd = analysis.parts.iter().any(|p| p.program() == Some("cd"));
    let has_git = analysis.parts.iter().any(|p| p.program() == Some("git"));
    let mut first_rule: Option<RuleId> = None;
    let mut needs: Vec<String> = Vec::new();
    let mut suggestions: Vec<String> = Vec::new();
    let mut edits_inside = true;
    let mut plan_blocked = false;
    for (part, part_touches) in analysis.parts.iter().zip(&all_touches) {
        if part.deny_only {
            continue;
        }
        match part_verdict(ctx, part, part_touches, has_cd && has_git, &cwds) {
            Verdict::Allowed(rule) => {
                if let Some(id) = rule {
                    if ctx.mode == PermissionMode::Plan && !is_read_only(part.argv()) {
                        plan_blocked = true;
                        needs.push(format!("`{}`", part.text));
                        continue;
                    }
                    first_rule = Some(first_rule.map_or(id, |f: RuleId| f.min(id)));
                }
            }
            Verdict::Needs { why, edit_inside } => {
                edits_inside &= edit_inside;
                needs.push(why);
                if let Some(rule) = suggest::bash_rule(part)
                    && !suggestions.contains(&rule)
                {
                    suggestions.push(rule);
                }
            }
        }
    }
    if needs.is_empty() {
        return match first_rule {
            Some(id) => Evaluation::by_rule(ctx, id, "the command"),
            None => Evaluation::plain(
                DecisionBehavior::Allow,
                "read-only commands inside the working directories run without asking",
                DecisionSource::WorkingDirectories,
            ),
        };
    }
    if plan_blocked && ctx.mode == PermissionMode::Plan {
        return Evaluation::plain(
            DecisionBehavior::Ask,
            format!(
                "plan mode asks before commands that are not read-only, even when a rule allows them: {}",
                needs.join("; ")
            ),
            by_the_mode(PermissionMode::Plan),
        );
    }
    let want = if edits_inside {
        Want::Edit { inside: true }
    } else {
        Want::Other
    };
    // In plan mode a command is never an "edit" to refuse: it asks.
    let want = if ctx.mode == PermissionMode::Plan {
        Want::Other
    } else {
        want
    };
    by_mode(ctx, want, format!("needs approval: {}", needs.join("; ")))
        .with_suggestions(suggestions)
}

enum Verdict {
    /// Allowed, by this rule or (None) as a built-in read-only command.
    Allowed(Option<RuleId>),
    /// Needs approval; `edit_inside`: it only edits files inside the working directories (acceptEdits allows it).
    Needs { why: String, edit_inside: bool },
}

fn needs(why: String) -> Verdict {
    Verdict::Needs {
        why,
        edit_inside: false,
    }
}

fn inside_all(ctx: &PermissionContext, touches: &[&Touch]) -> bool {
    touches
        .iter()
        .all(|t| !t.vague && t.forms.as_ref().is_some_and(|f| ctx.inside_working_dirs(f)))
}

fn read_allowed(ctx: &PermissionContext, forms: &PathForms) -> bool {
    ctx.inside_working_dirs(forms)
        || path_rule(ctx, RuleBehavior::Allow, &["Read"], forms).is_some()
}

fn part_verdict(
    ctx: &PermissionContext,
    part: &Part,
    touches: &[Touch],
    cd_with_git: bool,
    cwds: &[PathBuf],
) -> Verdict {
    // Redirections are file writes (and reads), checked like Edit and Read.
    let mut redirect_edit_inside = true;
    let mut redirect_rule: Option<RuleId> = None;
    for t in touches.iter().filter(|t| t.redirect) {
        if t.vague {
            return needs(format!(
                "the redirection target `{}` is only known when the command runs",
                t.text
            ));
        }
        let Some(forms) = &t.forms else {
            return needs(format!(
                "the redirection target `{}` cannot be resolved",
                t.text
            ));
        };
        if t.write {
            if let Some(id) = path_rule(ctx, RuleBehavior::Allow, &["Edit"], forms) {
                redirect_rule = Some(id);
                continue;
            }
            redirect_edit_inside &= ctx.inside_working_dirs(forms);
            if !ctx.inside_working_dirs(forms) || ctx.mode != PermissionMode::AcceptEdits {
                return Verdict::Needs {
                    why: format!("writes {}", forms.lexical.display()),
                    edit_inside: ctx.inside_working_dirs(forms),
                };
            }
        } else if !read_allowed(ctx, forms) {
            return needs(format!(
                "reads {} outside the working directories",
                forms.lexical.display()
            ));
        }
    }
    // A glob or expansion in a file argument could name a denied file: it is not approved without asking.
    for t in touches.iter().filter(|t| !t.redirect && t.vague) {
        let guarded = if t.write {
            ctx.rules.has_path_rules(RuleBehavior::Deny, "Edit")
                || ctx.rules.has_path_rules(RuleBehavior::Ask, "Edit")
                || ctx.rules.has_path_rules(RuleBehavior::Deny, "Read")
        } else {
            ctx.rules.has_path_rules(RuleBehavior::Deny, "Read")
                || ctx.rules.has_path_rules(RuleBehavior::Ask, "Read")
        };
        if guarded {
            return needs(format!(
                "`{}` could match a path that deny or ask rules protect",
                t.text
            ));
        }
    }
    let argv = part.argv();
    if part.cmd.keyword || argv.is_empty() {
        return keyword_verdict(part).unwrap_or(Verdict::Allowed(redirect_rule));
    }
    if !part.env_safe {
        return needs(format!(
            "`{}` runs with {} set, which can change what runs",
            part.text,
            part.env.join(", ")
        ));
    }
    // `sed -i` on files outside the working directories is treated like an exec wrapper.
    let sed_outside = argv.first().map(|w| base_name(w.text())) == Some("sed")
        && shell::sed_args(argv).in_place
        && touches
            .iter()
            .any(|t| t.write && !t.forms.as_ref().is_some_and(|f| ctx.inside_working_dirs(f)));
    let exec_wrapper = part
        .exec_wrapper
        .or(sed_outside.then_some("sed -i edits files outside the working directories"));
    if let Some(id) = bash_rule_with(ctx, RuleBehavior::Allow, part, exec_wrapper.is_some())
        .or_else(|| {
            ctx.rules
                .tool_level(RuleBehavior::Allow, "Bash")
                .filter(|_| exec_wrapper.is_none())
        })
    {
        return Verdict::Allowed(Some(id));
    }
    if let Some(why) = exec_wrapper {
        return needs(format!(
            "`{}`: {why}; only an exact rule for the whole command approves it",
            part.text
        ));
    }
    let program = argv[0].text();
    if is_read_only(argv) {
        if cd_with_git && matches!(program, "cd" | "git") {
            return needs("`cd` combined with `git` asks".into());
        }
        if matches!(
            base_name(program),
            "find" | "sort" | "rg" | "git" | "file" | "uniq"
        ) && argv.iter().skip(1).any(|w| w.glob)
        {
            return needs(format!("`{}` gets an unquoted glob", part.text));
        }
        let mut paths: Vec<usize> = read_only_paths(argv);
        if program == "cd" && argv.len() == 1 {
            return needs("`cd` to the home directory leaves the working directories".into());
        }
        if program == "cd" {
            paths = vec![1];
        }
        for i in paths {
            let Some(word) = argv.get(i) else { continue };
            if program == "cd" && word.text() == "-" {
                return needs("`cd -` goes to an unknown directory".into());
            }
            for forms in resolve(word, cwds, ctx.home.as_deref()) {
                match forms {
                    Some(f) if read_allowed(ctx, &f) => {}
                    Some(f) => {
                        return needs(format!(
                            "`{}` touches {} outside the working directories",
                            part.text,
                            f.lexical.display()
                        ));
                    }
                    None => {
                        return needs(format!(
                            "`{}`: the path `{}` is only known when it runs",
                            part.text, word.raw
                        ));
                    }
                }
            }
        }
        return Verdict::Allowed(redirect_rule);
    }
    // acceptEdits: mkdir, touch, mv, cp inside the working directories.
    if matches!(program, "mkdir" | "touch" | "mv" | "cp") {
        let files: Vec<&Touch> = touches.iter().filter(|t| !t.redirect).collect();
        let inside = !files.is_empty() && inside_all(ctx, &files) && redirect_edit_inside;
        return Verdict::Needs {
            why: format!("`{}` changes files", part.text),
            edit_inside: inside,
        };
    }
    needs(format!("`{}`", part.text))
}

fn keyword_verdict(part: &Part) -> Option<Verdict> {
    let names: Vec<&str> = if part.cmd.words.is_empty() {
        part.cmd
            .assignments
            .iter()
            .map(|a| a.name.as_str())
            .collect()
    } else {
        match part.cmd.words[0].text() {
            "[[" => return None,
            "export" | "declare" | "typeset" | "local" | "readonly" | "unset" => part.cmd.words
                [1..]
                .iter()
                .filter(|w| !w.text().starts_with('-'))
                .map(|w| w.text().split('=').next().unwrap_or(""))
                .collect(),
            _ => return Some(needs(format!("`{}`", part.text))),
        }
    };
    // A plain lower-case shell variable changes nothing another program sees (proxy variables excepted).
    let harmless = |n: &str| {
        shell::is_safe_variable(n)
            || (!n.is_empty()
                && n.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
                && !n.ends_with("_proxy"))
    };
    let unsafe_names: Vec<&str> = names.into_iter().filter(|n| !harmless(n)).collect();
    (!unsafe_names.is_empty()).then(|| {
        needs(format!(
            "sets {} for the commands after it",
            unsafe_names.join(", ")
        ))
    })
}

/// The forced ask for `rm`/`rmdir` aimed at a critical path.
fn critical_rm(ctx: &PermissionContext, part: &Part, cwds: &[PathBuf]) -> Option<Evaluation> {
    let (start, _) = shell::strip_for_deny(&part.cmd.words);
    let words = &part.cmd.words[start..];
    let at = words
        .iter()
        .position(|w| matches!(base_name(w.text()), "rm" | "rmdir"))?;
    let argv = &words[at..];
    for w in argv.iter().skip(1) {
        let t = w.text();
        if t.starts_with('-') && t != "-" {
            continue;
        }
        let raw = w.raw.as_str();
        let home_ref = raw == "~"
            || raw == "~/"
            || raw.starts_with("$HOME")
            || raw.starts_with("${HOME}")
            || raw.starts_with("\"$HOME")
            || raw.starts_with("\"${HOME}");
        let home_exact = home_ref
            && matches!(
                raw.trim_matches('"').trim_end_matches('/'),
                "~" | "$HOME" | "${HOME}" | "$HOME/*" | "${HOME}/*" | "~/*"
            );
        let critical = home_exact
            || resolve(w, cwds, ctx.home.as_deref())
                .into_iter()
                .flatten()
                .any(|f| {
                    critical_for_rm(&f.lexical, &ctx.project_root, ctx.home.as_deref())
                        || critical_for_rm(&f.resolved, &ctx.project_root, ctx.home.as_deref())
                });
        if critical {
            return Some(Evaluation::forced_ask(
                format!(
                    "`{}` removes a critical path ({raw}); this always asks",
                    part.text
                ),
                by_check(SafetyCheck::CriticalRemoval),
            ));
        }
    }
    None
}

//! The Bash tool's permission check (docs/permissions.md §3): every subcommand, nested ones included, against
//! deny, ask and allow rules; file arguments and redirections against path rules and protected paths; built-in
//! read-only commands; what cannot be analysed asks.

mod paths;
mod safety;

use std::path::PathBuf;

use serde_json::Value;
use tandem_protocol::{DecisionBehavior, DecisionSource, PermissionMode, SafetyCheck, TraceCheck};

use super::PermissionContext;
use super::path_forms::PathForms;
use super::rule::RuleBehavior;
use super::rule_id::RuleId;
use super::suggest;
use super::verdict::{
    Evaluation, Want, by_check, by_mode, by_the_mode, common, families, path_rule, protected_write,
};
use super::walk::{Covered, covered_under};
use crate::shell::{self, Analysis, Part, Walked, base_name, is_read_only, read_only_paths};
use crate::tool::Placement;
use paths::{Touch, child_of, cwd_candidates, mentions, resolve, touches};
use safety::{critical_rm, git_config_write};

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

/// A part as the reasons name it: its text, and what runs it when an option or a variable carries it.
fn shown(part: &Part) -> String {
    match &part.carrier {
        Some(by) => format!("`{}` (run by {by})", part.text),
        None => format!("`{}`", part.text),
    }
}

/// Everything the steps of one Bash decision look at: the analysis, the directories `cd` may reach, and the files
/// each part touches.
struct Scan {
    analysis: Analysis,
    cwds: Vec<PathBuf>,
    touches: Vec<Vec<Touch>>,
    /// Folders a part reads every file under (`grep -r`, `rg`, `git log -p`, `tar c`): the part's index, the folder
    /// (`None` when only known at run time) and whether `.gitignore` exclusions apply.
    walks: Vec<(usize, Option<PathForms>, bool)>,
    /// Paths named where what happens to them is unknown, with the word naming them.
    mentions: Vec<(String, PathForms)>,
}

impl Scan {
    fn new(ctx: &PermissionContext, command: &str) -> Self {
        let analysis = shell::analyse(command);
        let (cwds, cwd_unknown) = cwd_candidates(ctx, &analysis);
        let touches = analysis
            .parts
            .iter()
            .map(|p| {
                let cwds: &[PathBuf] = if p.elsewhere || cwd_unknown {
                    &[]
                } else {
                    &cwds
                };
                touches(p, cwds, ctx.home.as_deref())
            })
            .collect();
        let mentions = analysis
            .parts
            .iter()
            .filter(|p| !p.elsewhere && !cwd_unknown)
            .flat_map(|p| mentions(p, &cwds, ctx.home.as_deref()))
            .collect();
        let mut walks = Vec::new();
        let read_rules = [RuleBehavior::Deny, RuleBehavior::Ask]
            .iter()
            .any(|b| ctx.rules.has_path_rules(*b, "Read") || ctx.rules.has_path_rules(*b, "Bash"));
        for (at, p) in analysis.parts.iter().enumerate().filter(|_| read_rules) {
            let argv = p.argv();
            if p.cmd.keyword || argv.is_empty() {
                continue;
            }
            let here: &[PathBuf] = if p.elsewhere || cwd_unknown {
                &[]
            } else {
                &cwds
            };
            let ignores = shell::respects_ignores(argv);
            for walked in shell::walked(argv) {
                let roots = match walked {
                    Walked::Word(i) => match argv.get(i) {
                        Some(w) => resolve(w, here, ctx.home.as_deref()),
                        None => continue,
                    },
                    Walked::Cwd if here.is_empty() => vec![None],
                    Walked::Cwd => here.iter().map(|c| Some(PathForms::of(c))).collect(),
                };
                walks.extend(roots.into_iter().map(|r| (at, r, ignores)));
            }
        }
        Self {
            analysis,
            cwds,
            touches,
            mentions,
            walks,
        }
    }

    fn all_touches(&self) -> impl Iterator<Item = &Touch> {
        self.touches.iter().flatten()
    }
}

/// The answer of one step, or `None` to go on to the next step.
type Step = Option<Evaluation>;

/// Answers the permission question for one Bash command: deny rules, safety checks, ask rules, what cannot be
/// analysed, then what every part needs (docs/permissions.md §1, §3).
pub fn evaluate_bash(
    ctx: &PermissionContext,
    tool: &str,
    input: &Value,
    command: &str,
) -> Evaluation {
    let scan = Scan::new(ctx, command);
    deny_rules(ctx, &scan, command)
        .or_else(|| safety_checks(ctx, &scan))
        .or_else(|| ask_rules(ctx, tool, input, &scan))
        .or_else(|| unanalysable(&scan))
        .unwrap_or_else(|| {
            let eval = requirements(ctx, &scan);
            // Only the Bash tool runs commands in the sandbox (Tungsten's terminals run outside it).
            if tool == crate::tool::names::BASH {
                sandboxed(ctx, input, command, eval)
            } else {
                eval
            }
        })
}

/// Step 6: with `sandbox.autoAllowBashIfSandboxed`, what would ask runs without asking when the command runs inside
/// the sandbox (writes only in the writable folders, network only through the proxy). A command that runs outside
/// it (excluded, `dangerouslyDisableSandbox`, bubblewrap missing) keeps the answer the rules gave; plan mode still
/// asks.
fn sandboxed(
    ctx: &PermissionContext,
    input: &Value,
    command: &str,
    eval: Evaluation,
) -> Evaluation {
    let sandbox = &ctx.sandbox;
    if eval.behavior() != DecisionBehavior::Ask
        || eval.forced
        || !sandbox.auto_allow
        || ctx.mode == PermissionMode::Plan
    {
        return eval;
    }
    let disable = input
        .get("dangerouslyDisableSandbox")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    if sandbox.placement(command, disable) != Placement::Sandboxed {
        return eval;
    }
    let network = if sandbox.allowed_domains.is_empty() {
        "no network".to_string()
    } else {
        format!("network only to {}", sandbox.allowed_domains.join(", "))
    };
    Evaluation::plain(
        DecisionBehavior::Allow,
        format!(
            "the command runs in the sandbox (files writable only in the working directories, \
             sandbox.filesystem.allowWrite and its own temporary folders; {network}) and \
             sandbox.autoAllowBashIfSandboxed is on; without it: {}",
            eval.decision.reason
        ),
        DecisionSource::Sandbox,
    )
}

/// A rule of list `b` matching a file a part touches.
fn path_rule_on(ctx: &PermissionContext, b: RuleBehavior, touch: &Touch) -> Option<Evaluation> {
    let forms = touch.forms.as_ref()?;
    let fams: Vec<&str> = if b == RuleBehavior::Deny {
        families("Bash", touch.write, b)
            .into_iter()
            .filter(|f| *f != "Bash")
            .collect()
    } else if touch.write {
        vec!["Edit"]
    } else {
        vec!["Read"]
    };
    let id =
        path_rule(ctx, b, &fams, forms).or_else(|| path_rule(ctx, b, &fams, &child_of(forms)))?;
    let verb = if touch.write { "writing" } else { "reading" };
    Some(Evaluation::by_rule(
        ctx,
        id,
        &format!("{verb} {}", forms.lexical.display()),
    ))
}

/// Pieces of a command the parser could not read, split on the shell's separators, for deny rules.
fn rough_pieces(command: &str) -> Vec<&str> {
    command
        .split(['\n', ';', '&', '|', '(', ')', '`', '{', '}'])
        .map(|p| {
            p.trim()
                .trim_start_matches('$')
                .trim_start_matches('!')
                .trim()
        })
        .filter(|p| !p.is_empty())
        .collect()
}

/// Step 1: a deny rule on any part, on the text of a command that could not be read, or on a file touched.
fn deny_rules(ctx: &PermissionContext, scan: &Scan, command: &str) -> Step {
    for part in &scan.analysis.parts {
        if let Some(id) = bash_rule(ctx, RuleBehavior::Deny, part) {
            return Some(Evaluation::by_rule(ctx, id, &shown(part)));
        }
    }
    if scan.analysis.unanalysable_reason().is_some() {
        let index = ctx.rules.bash(RuleBehavior::Deny);
        let hit = std::iter::once(command.trim())
            .chain(rough_pieces(command))
            .find_map(|t| index.find(t, |_| true));
        if let Some(id) = hit {
            return Some(Evaluation::by_rule(ctx, id, "the command"));
        }
    }
    if let Some(e) = scan
        .all_touches()
        .find_map(|t| path_rule_on(ctx, RuleBehavior::Deny, t))
    {
        return Some(e);
    }
    // A command reading every file under a folder a read deny rule covers (`git grep key -- secrets`).
    scan.walks.iter().find_map(|(at, root, _)| {
        let root = root.as_ref()?;
        let id = path_rule(ctx, RuleBehavior::Deny, &["Read"], root)
            .or_else(|| path_rule(ctx, RuleBehavior::Deny, &["Read"], &child_of(root)))?;
        Some(Evaluation::by_rule(
            ctx,
            id,
            &format!(
                "{} reading everything under {}",
                shown(&scan.analysis.parts[*at]),
                root.lexical.display()
            ),
        ))
    })
}

/// Step 2: checks no mode waives: `rm` at a critical path, writes to protected paths, and files only known when
/// the command runs where they could be either (or could be covered by a deny or ask rule).
fn safety_checks(ctx: &PermissionContext, scan: &Scan) -> Step {
    for part in &scan.analysis.parts {
        if let Some(e) = critical_rm(ctx, part, &scan.cwds) {
            return Some(e);
        }
    }
    for touch in scan.all_touches().filter(|t| t.write) {
        if let Some(e) = touch.forms.as_ref().and_then(|f| protected_write(ctx, f)) {
            return Some(e);
        }
    }
    if let Some(e) = scan.analysis.parts.iter().find_map(git_config_write) {
        return Some(e);
    }
    if let Some(e) = denied_mention(ctx, scan) {
        return Some(e);
    }
    if let Some(e) = runtime_subcommand(ctx, scan) {
        return Some(e);
    }
    if let Some(e) = walked_past_rules(ctx, scan) {
        return Some(e);
    }
    let unknown_write = scan
        .all_touches()
        .find(|t| t.write && (t.vague || t.forms.is_none()));
    if let Some(t) = unknown_write {
        return Some(Evaluation::forced_ask(
            format!(
                "the command writes `{}`, which is only known when it runs, so it cannot be shown not to be a protected or critical path; this always asks",
                t.text
            ),
            by_check(SafetyCheck::ProtectedPath),
        ));
    }
    let guarded = |write: bool| {
        let fam = if write { "Edit" } else { "Read" };
        ctx.rules.has_path_rules(RuleBehavior::Deny, "Read")
            || ctx.rules.has_path_rules(RuleBehavior::Deny, fam)
            || ctx.rules.has_path_rules(RuleBehavior::Ask, fam)
    };
    let unknown_read = scan
        .all_touches()
        .find(|t| (t.vague || t.forms.is_none()) && guarded(t.write));
    unknown_read.map(|t| {
        Evaluation::forced_ask(
            format!(
                "`{}` is only known when the command runs and could name a path that deny or ask rules protect; this always asks",
                t.text
            ),
            by_tool("Bash"),
        )
    })
}

/// A command that reads every file under a folder holding something a read deny or ask rule covers: denied when the
/// folder itself is covered, otherwise a forced ask naming the rule and the file (the command never names it).
fn walked_past_rules(ctx: &PermissionContext, scan: &Scan) -> Step {
    for (at, root, ignores) in &scan.walks {
        let part = &scan.analysis.parts[*at];
        let Some(root) = root else {
            let guarded = ctx.rules.has_path_rules(RuleBehavior::Deny, "Read")
                || ctx.rules.has_path_rules(RuleBehavior::Ask, "Read");
            if !guarded {
                continue;
            }
            return Some(Evaluation::forced_ask(
                format!(
                    "{} reads every file under a folder only known when it runs, which could hold files that read \
                     deny or ask rules cover; this always asks",
                    shown(part)
                ),
                by_tool("Bash"),
            ));
        };
        for b in [RuleBehavior::Deny, RuleBehavior::Ask] {
            let Some(found) = covered_under(ctx, b, "Bash", root, *ignores) else {
                continue;
            };
            let (id, what) = match found {
                Covered::Path(id, path) => (id, format!("{} there", path.display())),
                Covered::Perhaps(id) => (
                    id,
                    "perhaps something there (not every file there could be checked)".to_string(),
                ),
            };
            let rule = ctx.rules.rule(id);
            return Some(Evaluation::forced_ask(
                format!(
                    "{} reads every file under {}, and the {} rule `{}` covers {what}; this always asks",
                    shown(part),
                    root.lexical.display(),
                    rule.behavior.as_str(),
                    rule.text,
                ),
                by_tool("Bash"),
            ));
        }
    }
    None
}

/// The forced ask for a command whose subcommand (or a later word) is built when it runs (`git $(echo push)`,
/// `git $SUB origin`) where a deny or ask rule names the program's words after its name: the rule cannot be shown
/// not to match.
fn runtime_subcommand(ctx: &PermissionContext, scan: &Scan) -> Step {
    for part in &scan.analysis.parts {
        if part.cmd.keyword {
            continue;
        }
        let (start, _) = shell::strip_for_deny(&part.cmd.words);
        let argv = &part.cmd.words[start..];
        let Some(at) = argv
            .iter()
            .skip(1)
            .position(|w| w.value.is_none())
            .map(|p| p + 1)
        else {
            continue;
        };
        let mut known: Vec<&str> = argv[..at].iter().map(|w| w.text()).collect();
        let Some(first) = known.first_mut() else {
            continue;
        };
        *first = base_name(first);
        let prefix = known.join(" ");
        for b in [RuleBehavior::Deny, RuleBehavior::Ask] {
            if let Some(id) = ctx.rules.bash(b).names_words_after(&prefix) {
                let rule = ctx.rules.rule(id);
                return Some(Evaluation::forced_ask(
                    format!(
                        "in `{}`, `{}` is only known when the command runs, and the {} rule `{}` names the words \
                         after `{}`; this always asks",
                        part.text,
                        argv[at].raw,
                        rule.behavior.as_str(),
                        rule.text,
                        known[0]
                    ),
                    by_tool("Bash"),
                ));
            }
        }
    }
    None
}

/// The forced ask for a path a deny rule covers, named by a program whose use of it is unknown.
fn denied_mention(ctx: &PermissionContext, scan: &Scan) -> Step {
    let fams = ["Read", "Edit"];
    let written = scan
        .mentions
        .iter()
        .find(|(_, forms)| protected_write(ctx, forms).is_some());
    if let Some((word, forms)) = written
        && scan
            .analysis
            .parts
            .iter()
            .any(|p| !p.cmd.keyword && !p.argv().is_empty() && !is_read_only(p.argv()))
    {
        return Some(Evaluation::forced_ask(
            format!(
                "the command names `{word}` ({}), a protected path, and what it does with it is not known; this always asks",
                forms.lexical.display()
            ),
            by_check(SafetyCheck::ProtectedPath),
        ));
    }
    scan.mentions.iter().find_map(|(word, forms)| {
        let id = path_rule(ctx, RuleBehavior::Deny, &fams, forms)
            .or_else(|| path_rule(ctx, RuleBehavior::Deny, &fams, &child_of(forms)))?;
        let rule = ctx.rules.rule(id);
        Some(Evaluation::forced_ask(
            format!(
                "the command names `{word}`, which the deny rule `{}` covers, and what it does with it is not known; this always asks",
                rule.text
            ),
            by_tool("Bash"),
        ))
    })
}

/// Step 3: whole-tool and parameter ask rules, ask rules on any part or on a file touched.
fn ask_rules(ctx: &PermissionContext, tool: &str, input: &Value, scan: &Scan) -> Step {
    if let Some(e) = common(ctx, tool, input, RuleBehavior::Ask) {
        return Some(e);
    }
    for part in &scan.analysis.parts {
        if let Some(id) = bash_rule(ctx, RuleBehavior::Ask, part) {
            return Some(Evaluation::by_rule(ctx, id, &shown(part)));
        }
    }
    scan.all_touches()
        .find_map(|t| path_rule_on(ctx, RuleBehavior::Ask, t))
}

/// Step 4: what cannot be analysed could hide a denied command or a protected path; it asks in every mode.
fn unanalysable(scan: &Scan) -> Step {
    scan.analysis.unanalysable_reason().map(|why| {
        Evaluation::forced_ask(
            format!(
                "the command cannot be analysed ({why}), so neither a rule nor a mode can approve it; this always asks"
            ),
            by_tool("Bash"),
        )
    })
}

/// What the parts of a command need, gathered.
#[derive(Default)]
struct Needs {
    first_rule: Option<RuleId>,
    /// A file edit inside the working directories was allowed by acceptEdits mode.
    edits_accepted: bool,
    why: Vec<String>,
    suggestions: Vec<String>,
    edits_inside: bool,
    plan_blocked: bool,
}

/// Step 5: every part must be allowed; what is left is for the mode to answer.
fn requirements(ctx: &PermissionContext, scan: &Scan) -> Evaluation {
    let has = |name: &str| {
        scan.analysis
            .parts
            .iter()
            .any(|p| p.program() == Some(name))
    };
    let cd_with_git = has("cd") && has("git");
    let mut needs = Needs {
        edits_inside: true,
        ..Needs::default()
    };
    let parts = scan.analysis.parts.iter().zip(&scan.touches);
    for (part, part_touches) in parts.filter(|(p, _)| !p.deny_only) {
        match part_verdict(ctx, part, part_touches, cd_with_git, &scan.cwds) {
            Verdict::Allowed(By::Rule(_))
                if ctx.mode == PermissionMode::Plan && !is_read_only(part.argv()) =>
            {
                needs.plan_blocked = true;
                needs.why.push(shown(part));
            }
            Verdict::Allowed(By::Rule(id)) => {
                needs.first_rule = Some(needs.first_rule.map_or(id, |f| f.min(id)));
            }
            Verdict::Allowed(By::EditsAccepted) => needs.edits_accepted = true,
            Verdict::Allowed(By::ReadOnly) => {}
            Verdict::Needs { why, edit_inside } => {
                needs.edits_inside &= edit_inside;
                needs.why.push(why);
                if let Some(rule) = suggest::bash_rule(part)
                    && !needs.suggestions.contains(&rule)
                {
                    needs.suggestions.push(rule);
                }
            }
        }
    }
    if needs.why.is_empty() {
        return allowed(ctx, &needs);
    }
    if needs.plan_blocked && ctx.mode == PermissionMode::Plan {
        return Evaluation::plain(
            DecisionBehavior::Ask,
            format!(
                "plan mode asks before commands that are not read-only, even when a rule allows them: {}",
                needs.why.join("; ")
            ),
            by_the_mode(PermissionMode::Plan),
        );
    }
    // In plan mode a command is never an "edit" to refuse: it asks.
    let want = if needs.edits_inside && ctx.mode != PermissionMode::Plan {
        Want::Edit { inside: true }
    } else {
        Want::Other
    };
    by_mode(
        ctx,
        want,
        format!("needs approval: {}", needs.why.join("; ")),
    )
    .with_suggestions(needs.suggestions)
}

/// The answer when every part is allowed, naming what allowed it.
fn allowed(ctx: &PermissionContext, needs: &Needs) -> Evaluation {
    if let Some(id) = needs.first_rule {
        return Evaluation::by_rule(ctx, id, "the command");
    }
    if needs.edits_accepted {
        return Evaluation::plain(
            DecisionBehavior::Allow,
            "acceptEdits mode allows file edits inside the working directories",
            by_the_mode(PermissionMode::AcceptEdits),
        );
    }
    Evaluation::plain(
        DecisionBehavior::Allow,
        "read-only commands inside the working directories run without asking",
        DecisionSource::WorkingDirectories,
    )
}

/// What allowed a part.
enum By {
    Rule(RuleId),
    /// A built-in read-only command inside the working directories.
    ReadOnly,
    /// acceptEdits mode, for a redirection into the working directories.
    EditsAccepted,
}

enum Verdict {
    Allowed(By),
    /// Needs approval; `edit_inside`: it only edits files inside the working directories (acceptEdits allows it).
    Needs {
        why: String,
        edit_inside: bool,
    },
}

fn needs(why: String) -> Verdict {
    Verdict::Needs {
        why,
        edit_inside: false,
    }
}

/// The tool itself as what decided.
fn by_tool(tool: &str) -> DecisionSource {
    DecisionSource::Tool {
        tool: tool.to_string(),
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

/// What the redirections of a part allow: `Ok(by)` when they are all allowed (`None`: nothing to allow), or what
/// they need.
fn redirections(ctx: &PermissionContext, touches: &[Touch]) -> Result<Option<By>, Verdict> {
    let mut by = None;
    for t in touches.iter().filter(|t| t.redirect) {
        let forms = match &t.forms {
            Some(forms) if !t.vague => forms,
            _ => {
                return Err(needs(format!(
                    "the redirection target `{}` is only known when the command runs",
                    t.text
                )));
            }
        };
        if !t.write {
            if !read_allowed(ctx, forms) {
                return Err(needs(format!(
                    "reads {} outside the working directories",
                    forms.lexical.display()
                )));
            }
            continue;
        }
        if let Some(id) = path_rule(ctx, RuleBehavior::Allow, &["Edit"], forms) {
            by = Some(By::Rule(id));
            continue;
        }
        let inside = ctx.inside_working_dirs(forms);
        if !inside || ctx.mode != PermissionMode::AcceptEdits {
            return Err(Verdict::Needs {
                why: format!("writes {}", forms.lexical.display()),
                edit_inside: inside,
            });
        }
        if by.is_none() {
            by = Some(By::EditsAccepted);
        }
    }
    Ok(by)
}

/// What one part needs: its redirections, then an allow rule, then the built-in read-only allowance.
fn part_verdict(
    ctx: &PermissionContext,
    part: &Part,
    touches: &[Touch],
    cd_with_git: bool,
    cwds: &[PathBuf],
) -> Verdict {
    let redirect_by = match redirections(ctx, touches) {
        Ok(by) => by,
        Err(verdict) => return verdict,
    };
    let argv = part.argv();
    if part.cmd.keyword || argv.is_empty() {
        return keyword_verdict(part)
            .unwrap_or(Verdict::Allowed(redirect_by.unwrap_or(By::ReadOnly)));
    }
    if !part.env_safe {
        return needs(format!(
            "`{}` runs with {} set, which can change what runs",
            part.text,
            part.env.join(", ")
        ));
    }
    if let Some(verdict) = allow_rule(ctx, part, touches) {
        return verdict;
    }
    if is_read_only(argv) {
        return match read_only_verdict(ctx, part, cd_with_git, cwds) {
            Some(verdict) => verdict,
            None => Verdict::Allowed(redirect_by.unwrap_or(By::ReadOnly)),
        };
    }
    // acceptEdits: mkdir, touch, mv, cp inside the working directories.
    if matches!(argv[0].text(), "mkdir" | "touch" | "mv" | "cp") {
        let files: Vec<&Touch> = touches.iter().filter(|t| !t.redirect).collect();
        let inside = !files.is_empty() && inside_all(ctx, &files);
        return Verdict::Needs {
            why: format!("`{}` changes files", part.text),
            edit_inside: inside,
        };
    }
    needs(shown(part))
}

/// An allow rule approving the part (only an exact one for exec wrappers), or what an exec wrapper needs.
fn allow_rule(ctx: &PermissionContext, part: &Part, touches: &[Touch]) -> Option<Verdict> {
    let argv = part.argv();
    // `sed -i` on files outside the working directories is treated like an exec wrapper.
    let sed_outside = argv.first().map(|w| base_name(w.text())) == Some("sed")
        && shell::sed_args(argv).in_place
        && touches
            .iter()
            .any(|t| t.write && !t.forms.as_ref().is_some_and(|f| ctx.inside_working_dirs(f)));
    let exec_wrapper = part
        .exec_wrapper
        .or(sed_outside.then_some("sed -i edits files outside the working directories"));
    let rule =
        bash_rule_with(ctx, RuleBehavior::Allow, part, exec_wrapper.is_some()).or_else(|| {
            ctx.rules
                .tool_level(RuleBehavior::Allow, "Bash")
                .filter(|_| exec_wrapper.is_none())
        });
    if let Some(id) = rule {
        return Some(Verdict::Allowed(By::Rule(id)));
    }
    exec_wrapper.map(|why| {
        needs(format!(
            "`{}`: {why}; only an exact rule for the whole command approves it",
            part.text
        ))
    })
}

/// What a built-in read-only command still needs: `None` when it runs without asking.
fn read_only_verdict(
    ctx: &PermissionContext,
    part: &Part,
    cd_with_git: bool,
    cwds: &[PathBuf],
) -> Option<Verdict> {
    let argv = part.argv();
    let program = argv[0].text();
    if cd_with_git && matches!(program, "cd" | "git") {
        return Some(needs("`cd` combined with `git` asks".into()));
    }
    if matches!(
        base_name(program),
        "find" | "sort" | "rg" | "git" | "file" | "uniq"
    ) && argv.iter().skip(1).any(|w| w.glob)
    {
        return Some(needs(format!("`{}` gets an unquoted glob", part.text)));
    }
    if program == "cd" && argv.len() == 1 {
        return Some(needs(
            "`cd` to the home directory leaves the working directories".into(),
        ));
    }
    let paths: Vec<usize> = if program == "cd" {
        vec![1]
    } else {
        read_only_paths(argv)
    };
    for i in paths {
        let Some(word) = argv.get(i) else { continue };
        if program == "cd" && word.text() == "-" {
            return Some(needs("`cd -` goes to an unknown directory".into()));
        }
        for forms in resolve(word, cwds, ctx.home.as_deref()) {
            match forms {
                Some(f) if read_allowed(ctx, &f) => {}
                Some(f) => {
                    return Some(needs(format!(
                        "`{}` touches {} outside the working directories",
                        part.text,
                        f.lexical.display()
                    )));
                }
                None => {
                    return Some(needs(format!(
                        "`{}`: the path `{}` is only known when it runs",
                        part.text, word.raw
                    )));
                }
            }
        }
    }
    None
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

/// What the decision trace tells about a command beyond its rules and checks: the commands options, variables and
/// wrappers carry, and the folders it reads that hold files read rules cover.
pub(crate) fn trace_notes(ctx: &PermissionContext, command: &str) -> Vec<(TraceCheck, String)> {
    let scan = Scan::new(ctx, command);
    let mut notes = Vec::new();
    for part in &scan.analysis.parts {
        if let Some(by) = &part.carrier {
            notes.push((
                TraceCheck::CarriedCommand,
                format!("`{}` runs from {by}", part.text),
            ));
        } else if part.deny_only && !part.cmd.keyword && !part.cmd.words.is_empty() {
            notes.push((
                TraceCheck::CarriedCommand,
                format!(
                    "`{}` runs inside another command; deny and ask rules see it",
                    part.text
                ),
            ));
        }
    }
    for (at, root, ignores) in &scan.walks {
        let Some(root) = root else { continue };
        for b in [RuleBehavior::Deny, RuleBehavior::Ask] {
            if let Some(Covered::Path(id, path)) = covered_under(ctx, b, "Bash", root, *ignores) {
                let rule = ctx.rules.rule(id);
                notes.push((
                    TraceCheck::WalksCoveredFiles,
                    format!(
                        "`{}` reads every file under {}; the {} rule `{}` covers {}",
                        scan.analysis.parts[*at].text,
                        root.lexical.display(),
                        rule.behavior.as_str(),
                        rule.text,
                        path.display()
                    ),
                ));
                break;
            }
        }
    }
    notes
}

/// Why `command` cannot be analysed, if it cannot (for the decision trace).
pub(crate) fn unanalysable_reason(command: &str) -> Option<String> {
    shell::analyse(command)
        .unanalysable_reason()
        .map(|why| why.to_string())
}

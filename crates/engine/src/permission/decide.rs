//! `decide()`: one answer with its reason for one tool call. Deny rules first, then safety checks, then ask rules,
//! then allow rules and built-in allowances, then the mode (spec/permissions.md §1).

use std::path::{Path, PathBuf};

use serde_json::Value;
use tandem_protocol::{
    DecisionBehavior, DecisionSource, PermissionDecision, PermissionMode, RuleScope, SafetyCheck,
};

use super::bash_check::evaluate_bash;
use super::domain::url_host;
use super::path_pattern::{normalise, resolve_links};
use super::rule::{RuleBehavior, RuleSource, canonical_tool_name};
use super::safety::protected;
use super::suggest;
use super::{PermissionContext, PermissionSubject};

/// The facts about one call that the decision needs.
#[derive(Debug, Clone, Copy)]
pub struct CallView<'a> {
    pub tool_name: &'a str,
    pub input: &'a Value,
    pub subject: &'a PermissionSubject,
    pub read_only: bool,
}

/// A decision with what the pipeline needs beyond the answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Evaluation {
    pub decision: PermissionDecision,
    /// The ask comes from an ask rule or a safety check: no mode, classifier or hook allow turns it into an allow.
    pub forced: bool,
    /// Allow rules "Yes, and don't ask again" would save (at most 5).
    pub suggestions: Vec<String>,
    /// A would-be ask turned into a deny because no one may be asked (dontAsk, background agents).
    pub converted_ask: bool,
}

impl Evaluation {
    pub fn behavior(&self) -> DecisionBehavior {
        self.decision.decision
    }

    pub(crate) fn plain(
        decision: DecisionBehavior,
        reason: impl Into<String>,
        source: DecisionSource,
    ) -> Self {
        Self {
            decision: PermissionDecision::new(decision, reason, source),
            forced: false,
            suggestions: Vec::new(),
            converted_ask: false,
        }
    }

    pub(crate) fn forced_ask(reason: impl Into<String>, source: DecisionSource) -> Self {
        Self {
            forced: true,
            ..Self::plain(DecisionBehavior::Ask, reason, source)
        }
    }

    /// A decision made by rule `id` of the context.
    pub(crate) fn by_rule(ctx: &PermissionContext, id: usize, what: &str) -> Self {
        let rule = ctx.rules.rule(id);
        let decision = match rule.behavior {
            RuleBehavior::Allow => DecisionBehavior::Allow,
            RuleBehavior::Deny => DecisionBehavior::Deny,
            RuleBehavior::Ask => DecisionBehavior::Ask,
        };
        let verb = match rule.behavior {
            RuleBehavior::Allow => "is allowed by",
            RuleBehavior::Deny => "is denied by",
            RuleBehavior::Ask => "needs approval because of",
        };
        let source = rule.source.label();
        Self {
            decision: PermissionDecision::by_rule(
                decision,
                format!(
                    "{what} {verb} the {} rule `{}` ({source})",
                    rule.behavior.as_str(),
                    rule.text
                ),
                rule.text.clone(),
                scope_of(&rule.source),
                file_of(&rule.source),
            ),
            forced: rule.behavior == RuleBehavior::Ask,
            suggestions: Vec::new(),
            converted_ask: false,
        }
    }

    pub(crate) fn with_suggestions(mut self, suggestions: Vec<String>) -> Self {
        self.suggestions = suggestions;
        self.suggestions.dedup();
        self.suggestions.truncate(5);
        self
    }
}

/// The settings-documentation scope of a rule source.
fn scope_of(source: &RuleSource) -> RuleScope {
    match source {
        RuleSource::Policy(_) => RuleScope::PolicySettings,
        RuleSource::FlagFile(_) => RuleScope::FlagSettings,
        RuleSource::CliArg => RuleScope::CliArg,
        RuleSource::Local(_) => RuleScope::LocalSettings,
        RuleSource::Project(_) => RuleScope::ProjectSettings,
        RuleSource::User(_) => RuleScope::UserSettings,
        RuleSource::Session => RuleScope::Session,
    }
}

/// The settings file a rule is written in, if any.
fn file_of(source: &RuleSource) -> Option<String> {
    match source {
        RuleSource::Policy(p)
        | RuleSource::FlagFile(p)
        | RuleSource::Local(p)
        | RuleSource::Project(p)
        | RuleSource::User(p) => Some(p.display().to_string()),
        RuleSource::CliArg | RuleSource::Session => None,
    }
}

/// The mode as what decided.
pub(crate) fn by_the_mode(mode: PermissionMode) -> DecisionSource {
    DecisionSource::Mode { mode }
}

/// A safety check as what decided.
pub(crate) fn by_check(check: SafetyCheck) -> DecisionSource {
    DecisionSource::SafetyCheck { check }
}

/// The tool itself as what decided.
fn by_tool(tool: &str) -> DecisionSource {
    DecisionSource::Tool {
        tool: tool.to_string(),
    }
}

/// What a call would do when no rule decides it, for the mode to judge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Want {
    /// A file edit; `inside`: every target is inside the working directories.
    Edit { inside: bool },
    /// Anything else.
    Other,
}

/// The mode's answer for a call nothing else decided; `reason` says why it would ask.
pub(crate) fn by_mode(ctx: &PermissionContext, want: Want, reason: String) -> Evaluation {
    use DecisionBehavior::*;
    let mode = by_the_mode(ctx.mode);
    match ctx.mode {
        PermissionMode::BypassPermissions => Evaluation::plain(
            Allow,
            format!("{reason}; bypassPermissions mode allows what no rule or safety check stops"),
            mode,
        ),
        PermissionMode::AcceptEdits if want == (Want::Edit { inside: true }) => Evaluation::plain(
            Allow,
            "acceptEdits mode allows file edits inside the working directories",
            mode,
        ),
        PermissionMode::Plan if matches!(want, Want::Edit { .. }) => Evaluation::plain(
            Deny,
            "plan mode: edits are refused until the plan is approved",
            mode,
        ),
        _ => Evaluation::plain(Ask, reason, mode),
    }
}

/// Turns asks into denies where no one may be asked: dontAsk mode, background agents without a UI.
pub(crate) fn finish(ctx: &PermissionContext, mut eval: Evaluation) -> Evaluation {
    if eval.behavior() == DecisionBehavior::Ask {
        let why = if ctx.mode == PermissionMode::DontAsk {
            Some((
                "dontAsk mode denies what would ask",
                by_the_mode(PermissionMode::DontAsk),
            ))
        } else if ctx.avoid_prompts {
            Some((
                "no one can answer a prompt here (background agent), so what would ask is denied",
                DecisionSource::NoPrompt,
            ))
        } else {
            None
        };
        if let Some((why, source)) = why {
            eval.decision.decision = DecisionBehavior::Deny;
            eval.decision.decided_by = Some(source);
            eval.converted_ask = true;
            eval.decision.reason = format!("{} — {why}", eval.decision.reason);
            eval.suggestions.clear();
        }
    }
    eval
}

/// Answers the permission question for one call.
pub fn decide(ctx: &PermissionContext, call: &CallView<'_>) -> PermissionDecision {
    evaluate(ctx, call).decision
}

/// Answers the permission question for one call, with whether the ask is forced and what rules would approve it.
pub fn evaluate(ctx: &PermissionContext, call: &CallView<'_>) -> Evaluation {
    let tool = canonical_tool_name(call.tool_name);
    if let Some(e) = common(ctx, tool, call.input, RuleBehavior::Deny) {
        return e;
    }
    let eval = match call.subject {
        PermissionSubject::Shell { command } => evaluate_bash(ctx, tool, call.input, command),
        PermissionSubject::ReadPath(path) => evaluate_read(ctx, tool, call.input, path),
        PermissionSubject::WritePath(path) => evaluate_write(ctx, tool, call.input, path),
        PermissionSubject::Fetch { url } => evaluate_fetch(ctx, tool, call.input, url),
        PermissionSubject::Agent { subagent_type } => {
            evaluate_agent(ctx, tool, call.input, subagent_type.as_deref())
        }
        PermissionSubject::Tool => evaluate_tool(ctx, tool, call),
    };
    finish(ctx, eval)
}

/// Whole-tool and parameter rules of list `b` for `tool`.
pub(crate) fn common(
    ctx: &PermissionContext,
    tool: &str,
    input: &Value,
    b: RuleBehavior,
) -> Option<Evaluation> {
    ctx.rules
        .tool_level(b, tool)
        .or_else(|| ctx.rules.param(b, tool, input))
        .map(|id| Evaluation::by_rule(ctx, id, tool))
}

fn evaluate_tool(ctx: &PermissionContext, tool: &str, call: &CallView<'_>) -> Evaluation {
    if tool == "AskUserQuestion" {
        return Evaluation::forced_ask("AskUserQuestion always asks the user", by_tool(tool));
    }
    if let Some(e) = common(ctx, tool, call.input, RuleBehavior::Ask) {
        return e;
    }
    if let Some(id) = ctx.rules.tool_level(RuleBehavior::Allow, tool) {
        if ctx.mode == PermissionMode::Plan && !call.read_only {
            return Evaluation::plain(
                DecisionBehavior::Ask,
                format!(
                    "plan mode asks before {tool}, which is not read-only, even though a rule allows it"
                ),
                by_the_mode(PermissionMode::Plan),
            );
        }
        return Evaluation::by_rule(ctx, id, tool);
    }
    if call.read_only {
        return Evaluation::plain(
            DecisionBehavior::Allow,
            format!("{tool} is read-only"),
            by_tool(tool),
        );
    }
    by_mode(ctx, Want::Other, format!("{tool} needs approval"))
        .with_suggestions(vec![tool.to_string()])
}

fn evaluate_agent(
    ctx: &PermissionContext,
    tool: &str,
    input: &Value,
    subagent_type: Option<&str>,
) -> Evaluation {
    let kind = subagent_type.unwrap_or("general-purpose");
    if let Some(id) = ctx.rules.name(RuleBehavior::Deny, tool, kind) {
        return Evaluation::by_rule(ctx, id, &format!("the {kind} sub-agent"));
    }
    if let Some(e) = common(ctx, tool, input, RuleBehavior::Ask) {
        return e;
    }
    if let Some(id) = ctx.rules.name(RuleBehavior::Ask, tool, kind) {
        return Evaluation::by_rule(ctx, id, &format!("the {kind} sub-agent"));
    }
    if let Some(id) = ctx
        .rules
        .tool_level(RuleBehavior::Allow, tool)
        .or_else(|| ctx.rules.name(RuleBehavior::Allow, tool, kind))
    {
        return Evaluation::by_rule(ctx, id, &format!("the {kind} sub-agent"));
    }
    Evaluation::plain(
        DecisionBehavior::Allow,
        format!("the {kind} sub-agent may start; it asks for its own tool calls"),
        by_tool(tool),
    )
}

fn evaluate_fetch(ctx: &PermissionContext, tool: &str, input: &Value, url: &str) -> Evaluation {
    let Some(host) = url_host(url) else {
        if let Some(e) = common(ctx, tool, input, RuleBehavior::Ask) {
            return e;
        }
        return by_mode(ctx, Want::Other, format!("the URL {url} has no host"));
    };
    let what = format!("fetching {host}");
    if let Some(id) = ctx.rules.domain(RuleBehavior::Deny, &host) {
        return Evaluation::by_rule(ctx, id, &what);
    }
    if let Some(e) = common(ctx, tool, input, RuleBehavior::Ask) {
        return e;
    }
    if let Some(id) = ctx.rules.domain(RuleBehavior::Ask, &host) {
        return Evaluation::by_rule(ctx, id, &what);
    }
    if let Some(id) = ctx
        .rules
        .tool_level(RuleBehavior::Allow, tool)
        .or_else(|| ctx.rules.domain(RuleBehavior::Allow, &host))
    {
        return Evaluation::by_rule(ctx, id, &what);
    }
    by_mode(ctx, Want::Other, format!("{what} needs approval"))
        .with_suggestions(vec![format!("{tool}(domain:{host})")])
}

/// A path as written and with symlinks resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PathForms {
    pub lexical: PathBuf,
    pub resolved: PathBuf,
}

impl PathForms {
    pub fn of(path: &Path) -> Self {
        let lexical = normalise(path);
        let resolved = resolve_links(&lexical);
        Self { lexical, resolved }
    }

    fn both(&self) -> [&Path; 2] {
        [&self.lexical, &self.resolved]
    }
}

/// Whether `path` is a UNC path (never touched on disk before a decision).
pub(crate) fn is_unc(path: &Path) -> bool {
    let s = path.to_string_lossy();
    s.starts_with("\\\\") || s.contains("/\\\\") || (cfg!(windows) && s.starts_with("//"))
}

/// The path rule families of list `b` that govern `tool` reading (or writing) a path.
pub(crate) fn families(tool: &str, write: bool, b: RuleBehavior) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::with_capacity(3);
    if write {
        out.push("Edit");
        if b == RuleBehavior::Deny {
            out.push("Read");
        }
    } else {
        out.push("Read");
    }
    if !out.contains(&tool) {
        out.push(tool);
    }
    out
}

/// The first rule of list `b` covering `forms` for these families: for deny and ask either form matching is
/// enough; for allow both must match.
pub(crate) fn path_rule(
    ctx: &PermissionContext,
    b: RuleBehavior,
    fams: &[&str],
    forms: &PathForms,
) -> Option<usize> {
    let mut best: Option<usize> = None;
    for fam in fams {
        let hit = if let Some(id) = ctx.rules.tool_level(b, fam) {
            Some(id)
        } else if b == RuleBehavior::Allow {
            let a = ctx.rules.path(b, fam, &forms.lexical);
            let r = if forms.resolved == forms.lexical {
                a
            } else {
                ctx.rules.path(b, fam, &forms.resolved)
            };
            match (a, r) {
                (Some(a), Some(r)) => Some(a.max(r)),
                _ => None,
            }
        } else {
            forms
                .both()
                .iter()
                .filter_map(|p| ctx.rules.path(b, fam, p))
                .min()
        };
        if let Some(id) = hit {
            best = Some(best.map_or(id, |b| b.min(id)));
        }
    }
    best
}

fn evaluate_read(ctx: &PermissionContext, tool: &str, input: &Value, path: &Path) -> Evaluation {
    if is_unc(path) {
        return Evaluation::forced_ask(
            format!(
                "{} is a network (UNC) path; it is not touched before you decide",
                path.display()
            ),
            by_check(SafetyCheck::NetworkPath),
        );
    }
    let forms = PathForms::of(path);
    let what = format!("reading {}", forms.lexical.display());
    if let Some(id) = path_rule(
        ctx,
        RuleBehavior::Deny,
        &families(tool, false, RuleBehavior::Deny),
        &forms,
    ) {
        return Evaluation::by_rule(ctx, id, &what);
    }
    if let Some(e) = common(ctx, tool, input, RuleBehavior::Ask) {
        return e;
    }
    if let Some(id) = path_rule(
        ctx,
        RuleBehavior::Ask,
        &families(tool, false, RuleBehavior::Ask),
        &forms,
    ) {
        return Evaluation::by_rule(ctx, id, &what);
    }
    if let Some(id) = ctx.rules.tool_level(RuleBehavior::Allow, tool).or_else(|| {
        path_rule(
            ctx,
            RuleBehavior::Allow,
            &families(tool, false, RuleBehavior::Allow),
            &forms,
        )
    }) {
        return Evaluation::by_rule(ctx, id, &what);
    }
    if ctx.inside_working_dirs(&forms) {
        return Evaluation::plain(
            DecisionBehavior::Allow,
            "reads inside the working directories are allowed",
            DecisionSource::WorkingDirectories,
        );
    }
    by_mode(
        ctx,
        Want::Other,
        format!(
            "{} is outside the working directories",
            forms.lexical.display()
        ),
    )
    .with_suggestions(suggest::path_rule("Read", ctx, &forms.lexical))
}

fn evaluate_write(ctx: &PermissionContext, tool: &str, input: &Value, path: &Path) -> Evaluation {
    if is_unc(path) {
        return Evaluation::forced_ask(
            format!(
                "{} is a network (UNC) path; it is not touched before you decide",
                path.display()
            ),
            by_check(SafetyCheck::NetworkPath),
        );
    }
    let forms = PathForms::of(path);
    let what = format!("writing {}", forms.lexical.display());
    if let Some(id) = path_rule(
        ctx,
        RuleBehavior::Deny,
        &families(tool, true, RuleBehavior::Deny),
        &forms,
    ) {
        return Evaluation::by_rule(ctx, id, &what);
    }
    if ctx.mode == PermissionMode::Plan {
        return Evaluation::plain(
            DecisionBehavior::Deny,
            "plan mode: edits are refused until the plan is approved",
            by_the_mode(PermissionMode::Plan),
        );
    }
    if let Some(e) = protected_write(ctx, &forms) {
        return e;
    }
    if let Some(e) = common(ctx, tool, input, RuleBehavior::Ask) {
        return e;
    }
    if let Some(id) = path_rule(
        ctx,
        RuleBehavior::Ask,
        &families(tool, true, RuleBehavior::Ask),
        &forms,
    ) {
        return Evaluation::by_rule(ctx, id, &what);
    }
    if let Some(id) = ctx.rules.tool_level(RuleBehavior::Allow, tool).or_else(|| {
        path_rule(
            ctx,
            RuleBehavior::Allow,
            &families(tool, true, RuleBehavior::Allow),
            &forms,
        )
    }) {
        return Evaluation::by_rule(ctx, id, &what);
    }
    let inside = ctx.inside_working_dirs(&forms);
    let reason = if inside {
        format!("{what} needs approval")
    } else {
        format!("{what}: it is outside the working directories")
    };
    by_mode(ctx, Want::Edit { inside }, reason).with_suggestions(suggest::path_rule(
        "Edit",
        ctx,
        &forms.lexical,
    ))
}

/// The forced ask for writing a protected path (either form), unless bypass mode exempts it.
pub(crate) fn protected_write(ctx: &PermissionContext, forms: &PathForms) -> Option<Evaluation> {
    for p in forms.both() {
        if let Some((exempt, what)) = protected(p) {
            if exempt && ctx.mode == PermissionMode::BypassPermissions {
                continue;
            }
            return Some(Evaluation::forced_ask(
                format!(
                    "{} is a protected path ({what}); writes there always ask",
                    forms.lexical.display()
                ),
                by_check(SafetyCheck::ProtectedPath),
            ));
        }
    }
    None
}

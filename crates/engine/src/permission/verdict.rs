//! The pieces every permission check composes: an [`Evaluation`] (a decision with what the pipeline needs beyond
//! it), what decided it, the mode's answer when no rule did, whole-tool and path rules and the protected-path
//! check. Shared by `decide` (every tool) and `bash_check` (the shell).

use crate::tool::names;

use serde_json::Value;
use tandem_protocol::{
    DecisionBehavior, DecisionSource, PermissionDecision, PermissionMode, RuleScope, SafetyCheck,
};

use super::PermissionContext;
use super::path_forms::PathForms;
use super::rule::{RuleBehavior, RuleSource};
use super::rule_id::RuleId;
use super::safety::protected;
pub(crate) use crate::fsutil::is_unc;

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

    /// A decision made by rule `id` of the context. A deny or ask rule that cannot be compiled asks (forced): it
    /// might cover the call.
    pub(crate) fn by_rule(ctx: &PermissionContext, id: RuleId, what: &str) -> Self {
        let rule = ctx.rules.rule(id);
        if let Some(why) = &rule.broken {
            let reason = format!(
                "{what} might be covered by the {} rule `{}` ({}), which cannot be used ({why}); it asks until the \
                 rule is fixed",
                rule.behavior.as_str(),
                rule.text,
                rule.source.label()
            );
            return Self::named_rule(
                DecisionBehavior::Ask,
                reason,
                &rule.text,
                &rule.source,
                true,
            );
        }
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
        let reason = format!(
            "{what} {verb} the {} rule `{}` ({})",
            rule.behavior.as_str(),
            rule.text,
            rule.source.label()
        );
        let forced = rule.behavior == RuleBehavior::Ask;
        Self::named_rule(decision, reason, &rule.text, &rule.source, forced)
    }

    /// A decision that names the rule `text` of `source` as what decided it.
    pub(crate) fn named_rule(
        decision: DecisionBehavior,
        reason: String,
        text: &str,
        source: &RuleSource,
        forced: bool,
    ) -> Self {
        Self {
            decision: PermissionDecision::by_rule(
                decision,
                reason,
                text.to_string(),
                scope_of(source),
                file_of(source),
            ),
            forced,
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
pub(crate) fn scope_of(source: &RuleSource) -> RuleScope {
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
pub(crate) fn file_of(source: &RuleSource) -> Option<String> {
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
            "plan mode: edits are refused until the plan is approved (call ExitPlanMode to present the plan)",
            mode,
        ),
        _ => Evaluation::plain(Ask, reason, mode),
    }
}

/// Why no one may be asked in `ctx` (dontAsk mode, a background agent without a UI), with what then decides that
/// an ask is denied; `None` where a person can be asked.
pub(crate) fn no_one_to_ask(ctx: &PermissionContext) -> Option<(&'static str, DecisionSource)> {
    if ctx.mode == PermissionMode::DontAsk {
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
    }
}

/// Turns an ask into a deny where no one may be asked ([`no_one_to_ask`]).
pub(crate) fn convert_ask(ctx: &PermissionContext, mut eval: Evaluation) -> Evaluation {
    if eval.behavior() == DecisionBehavior::Ask
        && let Some((why, source)) = no_one_to_ask(ctx)
    {
        eval.decision.decision = DecisionBehavior::Deny;
        eval.decision.decided_by = Some(source);
        eval.converted_ask = true;
        eval.decision.reason = format!("{} — {why}", eval.decision.reason);
        eval.suggestions.clear();
    }
    eval
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

/// The path rule families of list `b` that govern `tool` reading (or writing) a path.
pub(crate) fn families(tool: &str, write: bool, b: RuleBehavior) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::with_capacity(3);
    if write {
        out.push(names::EDIT);
        if b == RuleBehavior::Deny {
            out.push(names::READ);
        }
    } else {
        out.push(names::READ);
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
    fams: &[impl AsRef<str>],
    forms: &PathForms,
) -> Option<RuleId> {
    let mut best: Option<RuleId> = None;
    for fam in fams.iter().map(AsRef::as_ref) {
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
                .reduce(|a, b| ctx.rules.prefer(a, b))
        };
        if let Some(id) = hit {
            best = Some(best.map_or(id, |b| ctx.rules.prefer(b, id)));
        }
    }
    best
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

//! `decide()`: one answer with its reason for one tool call. Deny rules first, then safety checks, then ask rules,
//! then allow rules and built-in allowances, then the mode (docs/permissions.md §1); where no one may be asked, an
//! ask becomes a deny.

use crate::tool::names;
use std::path::Path;

use serde_json::Value;
use tandem_protocol::{
    DecisionBehavior, DecisionSource, PermissionDecision, PermissionMode, SafetyCheck,
};

use super::bash_check::evaluate_bash;
use super::domain::{is_preapproved_host, url_host};
use super::links_memo::LinksMemo;
use super::path_forms::PathForms;
use super::rule::{RuleBehavior, canonical_tool_name};
use super::suggest;
use super::unreadable::unreadable_settings;
use super::unusable::unusable_rules;
use super::verdict::{
    Evaluation, Want, by_check, by_mode, by_the_mode, common, convert_ask, families, is_unc,
    path_rule, protected_write,
};
use super::walk::{Covered, covered_under};
use super::{PermissionContext, PermissionSubject};

/// The facts about one call that the decision needs.
#[derive(Debug, Clone, Copy)]
pub struct CallView<'a> {
    pub tool_name: &'a str,
    pub input: &'a Value,
    pub subject: &'a PermissionSubject,
    pub read_only: bool,
}

/// The tool itself as what decided.
fn by_tool(tool: &str) -> DecisionSource {
    DecisionSource::Tool {
        tool: tool.to_string(),
    }
}

/// Answers the permission question for one call.
pub fn decide(ctx: &PermissionContext, call: &CallView<'_>) -> PermissionDecision {
    evaluate(ctx, call).decision
}

/// Answers the permission question for one call, with whether the ask is forced and what rules would approve it.
pub fn evaluate(ctx: &PermissionContext, call: &CallView<'_>) -> Evaluation {
    convert_ask(ctx, evaluate_asking(ctx, call))
}

/// [`evaluate`] where a person could be asked: an ask stays an ask even in dontAsk mode (the decision trace names
/// what asked before the mode turned it into a deny).
pub(crate) fn evaluate_asking(ctx: &PermissionContext, call: &CallView<'_>) -> Evaluation {
    // One decision resolves each path's links once, however many of its checks look at the path.
    let _memo = LinksMemo::start();
    let tool = canonical_tool_name(call.tool_name);
    if let Some(e) = common(ctx, tool, call.input, RuleBehavior::Deny) {
        return e;
    }
    let eval = match call.subject {
        PermissionSubject::Shell { command } => evaluate_bash(ctx, tool, call.input, command),
        PermissionSubject::ReadPath(path) => evaluate_read(ctx, tool, call.input, path),
        PermissionSubject::WritePath(path) => evaluate_write(ctx, tool, call.input, path),
        PermissionSubject::Fetch {
            url,
            private_address,
        } => evaluate_fetch(ctx, tool, call.input, url, private_address.as_deref()),
        PermissionSubject::Agent { subagent_type } => {
            evaluate_agent(ctx, tool, call.input, subagent_type.as_deref())
        }
        PermissionSubject::Skill { name, grants } => {
            evaluate_skill(ctx, tool, call.input, name, grants)
        }
        PermissionSubject::Tool => evaluate_tool(ctx, tool, call),
        PermissionSubject::PersonalRead { what } => evaluate_personal_read(ctx, tool, call, what),
        PermissionSubject::SessionOwned => Evaluation::plain(
            DecisionBehavior::Allow,
            format!("{tool} only touches what this session started, so it needs no permission"),
            by_tool(tool),
        ),
    };
    unusable_rules(ctx, tool, unreadable_settings(ctx, eval))
}

fn evaluate_tool(ctx: &PermissionContext, tool: &str, call: &CallView<'_>) -> Evaluation {
    if tool == names::ASK_USER_QUESTION {
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
    if let Some(why) = asks_in_every_mode(tool) {
        return Evaluation {
            suggestions: vec![tool.to_string()],
            ..Evaluation::forced_ask(why, by_tool(tool))
        };
    }
    // An MCP server's `readOnlyHint` is the server's own claim: it schedules the call, it does not approve it.
    if call.read_only && !tool.starts_with("mcp__") {
        return Evaluation::plain(
            DecisionBehavior::Allow,
            format!("{tool} is read-only"),
            by_tool(tool),
        );
    }
    by_mode(ctx, Want::Other, format!("{tool} needs approval"))
        .with_suggestions(vec![tool.to_string()])
}

/// Why a call to `tool` (one that reaches the rules as the bare tool) asks in every mode unless a rule allows it:
/// SuggestBackgroundPR starts unwatched work that ends in a pull request; RemoteTrigger's create and run (its
/// other actions only touch the session's own triggers) run commands on another machine, where no sandbox applies.
fn asks_in_every_mode(tool: &str) -> Option<&'static str> {
    match tool {
        names::SUGGEST_BACKGROUND_PR => Some(
            "SuggestBackgroundPR starts a background agent whose work is pushed and opened as a pull request; it \
             asks in every mode unless a rule allows it",
        ),
        names::REMOTE_TRIGGER => Some(
            "RemoteTrigger runs `tandem -p` on another machine over ssh; it asks in every mode unless a rule \
             allows it",
        ),
        _ => None,
    }
}

/// A read of something of the person's that may show secrets: ask rules, then an allow rule naming the tool (in
/// every mode, plan mode included: it only reads), else the mode asks (bypassPermissions allows, dontAsk denies).
fn evaluate_personal_read(
    ctx: &PermissionContext,
    tool: &str,
    call: &CallView<'_>,
    what: &str,
) -> Evaluation {
    if let Some(e) = common(ctx, tool, call.input, RuleBehavior::Ask) {
        return e;
    }
    if let Some(id) = ctx.rules.tool_level(RuleBehavior::Allow, tool) {
        return Evaluation::by_rule(ctx, id, tool);
    }
    by_mode(
        ctx,
        Want::Other,
        format!("{tool} reads {what}: it asks unless a {tool} rule allows it"),
    )
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

fn evaluate_skill(
    ctx: &PermissionContext,
    tool: &str,
    input: &Value,
    name: &str,
    grants: &[String],
) -> Evaluation {
    let what = format!("the {name} skill");
    if let Some(id) = ctx.rules.name(RuleBehavior::Deny, tool, name) {
        return Evaluation::by_rule(ctx, id, &what);
    }
    if let Some(e) = common(ctx, tool, input, RuleBehavior::Ask) {
        return e;
    }
    if let Some(id) = ctx.rules.name(RuleBehavior::Ask, tool, name) {
        return Evaluation::by_rule(ctx, id, &what);
    }
    if let Some(id) = ctx
        .rules
        .tool_level(RuleBehavior::Allow, tool)
        .or_else(|| ctx.rules.name(RuleBehavior::Allow, tool, name))
    {
        return Evaluation::by_rule(ctx, id, &what);
    }
    if grants.is_empty() {
        return Evaluation::plain(
            DecisionBehavior::Allow,
            format!("{what} only gives the model its instructions"),
            by_tool(tool),
        );
    }
    by_mode(
        ctx,
        Want::Other,
        format!(
            "{what} would allow {} without asking for the rest of the session",
            grants.join(", ")
        ),
    )
    .with_suggestions(vec![format!("{tool}({name})")])
}

fn evaluate_fetch(
    ctx: &PermissionContext,
    tool: &str,
    input: &Value,
    url: &str,
    private_address: Option<&str>,
) -> Evaluation {
    let Some(host) = url_host(url) else {
        if let Some(e) = common(ctx, tool, input, RuleBehavior::Ask) {
            return e;
        }
        return by_mode(ctx, Want::Other, format!("the URL {url} has no host"));
    };
    let what = format!("fetching {host}");
    if let Some(id) = ctx.rules.domain(RuleBehavior::Deny, tool, &host) {
        return Evaluation::by_rule(ctx, id, &what);
    }
    if let Some(e) = common(ctx, tool, input, RuleBehavior::Ask) {
        return e;
    }
    if let Some(id) = ctx.rules.domain(RuleBehavior::Ask, tool, &host) {
        return Evaluation::by_rule(ctx, id, &what);
    }
    if let Some(address) = private_address {
        // Only a rule naming this very host approves it; wildcards, whole-tool rules and modes do not.
        if let Some(id) = ctx.rules.exact_domain(RuleBehavior::Allow, tool, &host) {
            return Evaluation::by_rule(ctx, id, &what);
        }
        return Evaluation {
            suggestions: vec![format!("{tool}(domain:{host})")],
            ..Evaluation::forced_ask(
                if address.starts_with(&host) {
                    format!("{address} is not a public address; fetching it needs your approval")
                } else {
                    format!(
                        "{host} resolves to {address}, not a public address; fetching it needs your approval"
                    )
                },
                by_check(SafetyCheck::PrivateAddress),
            )
        };
    }
    if is_preapproved_host(&host) {
        return Evaluation::plain(
            DecisionBehavior::Allow,
            format!("{host} is a pre-approved documentation host"),
            by_tool(tool),
        );
    }
    if let Some(id) = ctx
        .rules
        .tool_level(RuleBehavior::Allow, tool)
        .or_else(|| ctx.rules.domain(RuleBehavior::Allow, tool, &host))
    {
        return Evaluation::by_rule(ctx, id, &what);
    }
    by_mode(ctx, Want::Other, format!("{what} needs approval"))
        .with_suggestions(vec![format!("{tool}(domain:{host})")])
}

/// A path inside `forms` (as if it were a folder): rules on a folder's contents (`secrets/**`) cover a search of
/// the folder itself.
fn inside(forms: &PathForms) -> PathForms {
    PathForms {
        lexical: forms.lexical.join("x"),
        resolved: forms.resolved.join("x"),
    }
}

/// The forced ask for a UNC path, which is never touched before the person decides.
fn network_path(path: &Path) -> Option<Evaluation> {
    is_unc(path).then(|| {
        Evaluation::forced_ask(
            format!(
                "{} is a network (UNC) path; it is not touched before you decide",
                path.display()
            ),
            by_check(SafetyCheck::NetworkPath),
        )
    })
}

/// The rule that would have answered for `call` had a safety check not decided first (a write to a protected path
/// an allow rule covers, a private address a whole-tool rule covers), for the decision trace.
pub(crate) fn rule_beneath_check(
    ctx: &PermissionContext,
    call: &CallView<'_>,
) -> Option<Evaluation> {
    let tool = canonical_tool_name(call.tool_name);
    match call.subject {
        PermissionSubject::WritePath(path) => {
            let forms = PathForms::of(path);
            let what = format!("writing {}", forms.lexical.display());
            ask_or_allow_rule(ctx, tool, call.input, true, &forms, &what)
        }
        PermissionSubject::Fetch { url, .. } => {
            let host = url_host(url)?;
            let id = ctx
                .rules
                .tool_level(RuleBehavior::Allow, tool)
                .or_else(|| ctx.rules.domain(RuleBehavior::Allow, tool, &host))?;
            Some(Evaluation::by_rule(ctx, id, &format!("fetching {host}")))
        }
        _ => None,
    }
}

/// The ask rules (whole-tool, parameter, path), then the allow rules (whole-tool, path) that decide reading or
/// (`write`) writing `forms` with `tool`.
fn ask_or_allow_rule(
    ctx: &PermissionContext,
    tool: &str,
    input: &Value,
    write: bool,
    forms: &PathForms,
    what: &str,
) -> Option<Evaluation> {
    if let Some(e) = common(ctx, tool, input, RuleBehavior::Ask) {
        return Some(e);
    }
    let rule = |b: RuleBehavior| path_rule(ctx, b, &families(tool, write, b), forms);
    rule(RuleBehavior::Ask)
        .or_else(|| {
            ctx.rules
                .tool_level(RuleBehavior::Allow, tool)
                .or_else(|| rule(RuleBehavior::Allow))
        })
        .map(|id| Evaluation::by_rule(ctx, id, what))
}

/// Tools that read every file under the folder they are given (a Read deny rule on anything there limits them).
fn walks_folder(tool: &str) -> bool {
    matches!(tool, names::GLOB | names::GREP)
}

/// For a search tool allowed to read a folder: the same answer, its reason naming the deny rule that covers
/// something under the folder (the tool leaves those files out).
fn limited_by_deny(
    ctx: &PermissionContext,
    tool: &str,
    forms: &PathForms,
    eval: Evaluation,
) -> Evaluation {
    if eval.behavior() != DecisionBehavior::Allow || !walks_folder(tool) {
        return eval;
    }
    let Some(found) = covered_under(ctx, RuleBehavior::Deny, tool, forms, true) else {
        return eval;
    };
    let (id, what) = match found {
        Covered::Path(id, path) => (id, path.display().to_string()),
        Covered::Perhaps(id) => (id, "perhaps some of them".to_string()),
    };
    let rule = ctx.rules.rule(id);
    let mut eval = eval;
    eval.decision.reason = format!(
        "{}; {tool} leaves out the files the deny rule `{}` ({}) covers ({what})",
        eval.decision.reason,
        rule.text,
        rule.source.label()
    );
    eval
}

fn evaluate_read(ctx: &PermissionContext, tool: &str, input: &Value, path: &Path) -> Evaluation {
    let forms = PathForms::of(path);
    let eval = evaluate_read_path(ctx, tool, input, path, &forms);
    limited_by_deny(ctx, tool, &forms, eval)
}

fn evaluate_read_path(
    ctx: &PermissionContext,
    tool: &str,
    input: &Value,
    path: &Path,
    forms: &PathForms,
) -> Evaluation {
    if let Some(e) = network_path(path) {
        return e;
    }
    let forms = forms.clone();
    let what = format!("reading {}", forms.lexical.display());
    let fams = families(tool, false, RuleBehavior::Deny);
    if let Some(id) = path_rule(ctx, RuleBehavior::Deny, &fams, &forms) {
        return Evaluation::by_rule(ctx, id, &what);
    }
    // A search aimed at a folder whose whole content a deny rule covers (`Read(secrets/**)`, Grep in `secrets`).
    if walks_folder(tool)
        && let Some(id) = path_rule(ctx, RuleBehavior::Deny, &fams, &inside(&forms))
    {
        return Evaluation::by_rule(
            ctx,
            id,
            &format!("searching everything in {}", forms.lexical.display()),
        );
    }
    if let Some(e) = ask_or_allow_rule(ctx, tool, input, false, &forms, &what) {
        return e;
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
    .with_suggestions(suggest::path_rule(names::READ, ctx, &forms.lexical))
}

fn evaluate_write(ctx: &PermissionContext, tool: &str, input: &Value, path: &Path) -> Evaluation {
    if let Some(e) = network_path(path) {
        return e;
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
            "plan mode: edits are refused until the plan is approved (call ExitPlanMode to present the plan)",
            by_the_mode(PermissionMode::Plan),
        );
    }
    if let Some(e) = protected_write(ctx, &forms) {
        return e;
    }
    if let Some(e) = ask_or_allow_rule(ctx, tool, input, true, &forms, &what) {
        return e;
    }
    let inside = ctx.inside_working_dirs(&forms);
    let reason = if inside {
        format!("{what} needs approval")
    } else {
        format!("{what}: it is outside the working directories")
    };
    by_mode(ctx, Want::Edit { inside }, reason).with_suggestions(suggest::path_rule(
        names::EDIT,
        ctx,
        &forms.lexical,
    ))
}

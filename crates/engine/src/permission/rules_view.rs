//! The rules panel's view of a context: every rule as written, whether it applies (and, in auto mode, why an allow
//! rule is set aside), and the rules that make an allow rule unreachable (a deny or ask rule covering all it
//! allows) or contradict it (the same pattern in another list). Coverage is judged on the rule texts: a whole-tool rule covers every rule of its tool, a pattern covers the
//! patterns it matches as text (`Bash(rm *)` covers `Bash(rm -rf build)`).

use tandem_protocol::{DecisionBehavior, PermissionMode, RuleListing};

use super::PermissionContext;
use super::auto_set_aside::set_aside_reason;
use super::rule::{ParsedRule, RuleBehavior, Specifier, ToolPattern, parse_rule, wildcard};
use super::ruleset::WAITS_FOR_TRUST;
use super::verdict::{file_of, scope_of};

fn behavior_of(b: RuleBehavior) -> DecisionBehavior {
    match b {
        RuleBehavior::Allow => DecisionBehavior::Allow,
        RuleBehavior::Ask => DecisionBehavior::Ask,
        RuleBehavior::Deny => DecisionBehavior::Deny,
    }
}

/// The specifier as written (`rm *` of `Bash(rm *)`), with the `:*` prefix form read as ` *`.
fn spec_text(rule: &str) -> Option<String> {
    let open = rule.find('(')?;
    let inner = rule[open + 1..].strip_suffix(')')?.trim();
    Some(match inner.strip_suffix(":*") {
        Some(prefix) => format!("{prefix} *"),
        None => inner.to_string(),
    })
}

/// Whether the deny or ask rule `cover` matches everything the allow rule `allow` allows.
fn covers(cover: (&str, &ParsedRule), allow: (&str, &ParsedRule)) -> bool {
    let (c_text, c) = cover;
    let (a_text, a) = allow;
    let tool_covered = match &a.tool {
        ToolPattern::Exact(name) => c.tool.matches(name),
        other => *other == c.tool,
    };
    if !tool_covered {
        return false;
    }
    match (&c.spec, &a.spec) {
        (Specifier::Any, _) => true,
        (_, Specifier::Any) | (Specifier::Param { .. }, _) => false,
        _ => match (spec_text(c_text), spec_text(a_text)) {
            (Some(c), Some(a)) => c == a || wildcard(&c, &a),
            _ => false,
        },
    }
}

/// Every rule of `ctx` as written (highest priority first), with whether it applies and its conflicts.
pub fn rule_listing(ctx: &PermissionContext) -> Vec<RuleListing> {
    let parsed: Vec<_> = ctx
        .entries
        .iter()
        .map(|e| (e, parse_rule(e.text.trim(), e.behavior)))
        .collect();
    let waits = |e: &super::RuleEntry| {
        !ctx.trusted && e.behavior == RuleBehavior::Allow && e.source.is_project_level()
    };
    let auto_mode = ctx.mode == PermissionMode::Auto;
    parsed
        .iter()
        .map(|(entry, result)| {
            let text = entry.text.trim();
            let set_aside = match result {
                Ok(p) if auto_mode && !waits(entry) => set_aside_reason(text, entry.behavior, p),
                _ => None,
            };
            let broken = || {
                ctx.rules
                    .rules()
                    .iter()
                    .find(|r| {
                        r.text == text && r.behavior == entry.behavior && r.source == entry.source
                    })
                    .and_then(|r| r.broken.clone())
            };
            let (applies, problem) = match result {
                Err(message) => (false, Some(message.clone())),
                Ok(_) if waits(entry) => (false, Some(WAITS_FOR_TRUST.to_string())),
                Ok(p) => match broken() {
                    Some(why) => (false, Some(why)),
                    None => (set_aside.is_none(), p.warning.clone()),
                },
            };
            let shadowed_by = match result {
                Ok(a) if entry.behavior == RuleBehavior::Allow => parsed
                    .iter()
                    .filter(|(other, _)| other.behavior != RuleBehavior::Allow)
                    .filter_map(|(other, r)| {
                        let c = r.as_ref().ok()?;
                        covers((other.text.trim(), c), (text, a))
                            .then(|| format!("{}: {}", other.behavior.as_str(), other.text.trim()))
                    })
                    .collect(),
                _ => Vec::new(),
            };
            let mut contradicts: Vec<String> = parsed
                .iter()
                .filter(|(other, _)| other.behavior != entry.behavior && other.text.trim() == text)
                .map(|(other, _)| format!("{}: {}", other.behavior.as_str(), other.source.label()))
                .collect();
            contradicts.dedup();
            RuleListing {
                rule: text.to_string(),
                behavior: behavior_of(entry.behavior),
                scope: scope_of(&entry.source),
                file: file_of(&entry.source),
                applies,
                problem,
                shadowed_by,
                contradicts,
                set_aside,
            }
        })
        .collect()
}

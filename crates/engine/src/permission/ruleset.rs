//! The compiled rules of a context: every valid rule from every source, concatenated in priority order and
//! de-duplicated, indexed per list (deny, ask, allow) by family so that one decision looks at few rules.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::auto_set_aside::set_aside_reason;
use super::bash_pattern::BashIndex;
use super::domain::domain_matches;
use super::path_pattern::{Anchors, PathIndex, absolute_glob};
use super::rule::{Rule, RuleBehavior, Specifier, ToolPattern, named_tool, parse_rule, wildcard};
use super::rule_id::RuleId;
pub use super::unusable_rule::UnusableRule;
pub use crate::settings::{RuleEntry, SettingsIssue};

#[derive(Debug, Clone, Default)]
struct List {
    tool_level: Vec<RuleId>,
    params: Vec<RuleId>,
    bash: BashIndex,
    domains: Vec<RuleId>,
    names: Vec<RuleId>,
    paths: HashMap<String, PathIndex>,
}

/// Every valid rule in force, indexed, and the deny and ask rules that cannot be used.
#[derive(Debug, Clone, Default)]
pub struct RuleSet {
    rules: Vec<Rule>,
    lists: [List; 3],
    unusable: Vec<UnusableRule>,
}

/// What the report of a deny or ask rule that cannot be used adds: it is not dropped.
const UNTIL_FIXED: &str = "; until it is fixed, the calls it might cover ask";

/// Per tool family, the path rules of one list: each rule's absolute glob, or why it has none.
type PathGlobs = HashMap<String, Vec<(RuleId, Result<String, String>)>>;

/// Whether a domain rule written for `pattern` judges a fetch by `tool`: its own tool's, and WebFetch's for any tool.
fn covers_fetch(pattern: &ToolPattern, tool: &str) -> bool {
    pattern.matches(tool) || pattern.matches(crate::tool::names::WEB_FETCH)
}

fn slot(b: RuleBehavior) -> usize {
    match b {
        RuleBehavior::Deny => 0,
        RuleBehavior::Ask => 1,
        RuleBehavior::Allow => 2,
    }
}

fn scalar_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// The issue reported for a project allow rule in a folder that is not trusted (not a mistake in the file: the
/// window shows these in its trust question rather than as problems).
pub const WAITS_FOR_TRUST: &str = "not applied until the folder is trusted (project allow rules)";

impl RuleSet {
    /// Parses and indexes `entries` (highest-priority source first). Project-level allow rules are dropped when the
    /// folder is not trusted; in auto mode, allow rules that let any code run are set aside (see
    /// [`set_aside_reason`]). Returns the set and the problems found.
    pub fn build(
        entries: &[RuleEntry],
        anchors: &Anchors,
        trusted: bool,
        auto_mode: bool,
    ) -> (Self, Vec<SettingsIssue>) {
        let mut set = RuleSet::default();
        let mut issues = Vec::new();
        let mut seen: HashSet<(RuleBehavior, &str)> = HashSet::new();
        let mut path_globs: [PathGlobs; 3] = Default::default();
        for entry in entries {
            let text = entry.text.trim();
            // A rule that waits for trust does not hide the same rule from a source that applies (a rule saved from
            // the dialog is both in the local settings file and granted for the session).
            let waits_for_trust = !trusted
                && entry.behavior == RuleBehavior::Allow
                && entry.source.is_project_level();
            if !waits_for_trust && !seen.insert((entry.behavior, text)) {
                continue;
            }
            let issue = |message: String| SettingsIssue {
                file: entry.source.label(),
                rule: Some(format!("{}: {}", entry.behavior.as_str(), text)),
                message,
            };
            let parsed = match parse_rule(text, entry.behavior) {
                Ok(p) => p,
                Err(message) => {
                    if entry.behavior == RuleBehavior::Allow {
                        issues.push(issue(message));
                    } else {
                        issues.push(issue(format!("{message}{UNTIL_FIXED}")));
                        set.unusable.push(UnusableRule {
                            text: text.to_string(),
                            behavior: entry.behavior,
                            source: entry.source.clone(),
                            tool: named_tool(text),
                            why: message,
                        });
                    }
                    continue;
                }
            };
            if let Some(w) = &parsed.warning {
                issues.push(issue(w.clone()));
            }
            if waits_for_trust {
                issues.push(issue(WAITS_FOR_TRUST.into()));
                continue;
            }
            if auto_mode && set_aside_reason(text, entry.behavior, &parsed).is_some() {
                continue;
            }
            let id = RuleId::at(set.rules.len());
            let list = &mut set.lists[slot(entry.behavior)];
            match (&parsed.spec, &parsed.tool) {
                (Specifier::Any, _) => list.tool_level.push(id),
                (Specifier::Param { .. }, _) => list.params.push(id),
                (Specifier::Bash(p), _) => list.bash.insert(id, p.clone()),
                (Specifier::Domain(_), _) => list.domains.push(id),
                (Specifier::Name(_), _) => list.names.push(id),
                (Specifier::Path(p), ToolPattern::Exact(tool)) => {
                    let glob = absolute_glob(p, &entry.source, entry.behavior, anchors)
                        .ok_or_else(|| "the pattern cannot be anchored (no home directory)".into());
                    if glob.is_err() && entry.behavior == RuleBehavior::Allow {
                        issues.push(issue(
                            "the pattern cannot be anchored (no home directory)".into(),
                        ));
                        continue;
                    }
                    path_globs[slot(entry.behavior)]
                        .entry(tool.clone())
                        .or_default()
                        .push((id, glob));
                }
                (Specifier::Path(_), tool) => {
                    let why = "a path rule must name one tool".to_string();
                    if entry.behavior == RuleBehavior::Allow {
                        issues.push(issue(why));
                    } else {
                        issues.push(issue(format!("{why}{UNTIL_FIXED}")));
                        set.unusable.push(UnusableRule {
                            text: text.to_string(),
                            behavior: entry.behavior,
                            source: entry.source.clone(),
                            tool: Some(tool.clone()),
                            why,
                        });
                    }
                    continue;
                }
            }
            set.rules.push(Rule {
                text: text.to_string(),
                behavior: entry.behavior,
                source: entry.source.clone(),
                tool: parsed.tool,
                spec: parsed.spec,
                broken: None,
            });
        }
        for (i, families) in path_globs.into_iter().enumerate() {
            for (family, globs) in families {
                let keep_broken = i != slot(RuleBehavior::Allow);
                let (index, failed) = PathIndex::build(globs, keep_broken);
                for (id, message) in failed {
                    if let Some(rule) = set.rules.get_mut(id.index()) {
                        let until = if keep_broken { UNTIL_FIXED } else { "" };
                        issues.push(SettingsIssue {
                            file: rule.source.label(),
                            rule: Some(format!("{}: {}", rule.behavior.as_str(), rule.text)),
                            message: format!("the path pattern does not compile: {message}{until}"),
                        });
                        rule.broken = Some(format!("its path pattern does not compile: {message}"));
                    }
                }
                set.lists[i].paths.insert(family, index);
            }
        }
        (set, issues)
    }

    /// Every rule in force, highest priority first within each list.
    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// The deny and ask rules that do not parse: kept so that the calls they might cover ask.
    pub fn unusable(&self) -> &[UnusableRule] {
        &self.unusable
    }

    /// Of two matching rules of one list, the one that decides: a rule that can be compiled before one that cannot
    /// (a deny stays a deny), then the higher priority.
    pub fn prefer(&self, a: RuleId, b: RuleId) -> RuleId {
        let key = |id: RuleId| (self.rules[id.index()].broken.is_some(), id);
        if key(b) < key(a) { b } else { a }
    }

    /// The rule with id `id`.
    pub fn rule(&self, id: RuleId) -> &Rule {
        &self.rules[id.index()]
    }

    /// A whole-tool rule of list `b` covering `tool`.
    pub fn tool_level(&self, b: RuleBehavior, tool: &str) -> Option<RuleId> {
        self.lists[slot(b)]
            .tool_level
            .iter()
            .copied()
            .find(|id| self.rules[id.index()].tool.matches(tool))
    }

    /// A parameter rule of list `b` matching `tool` called with `input`.
    pub fn param(&self, b: RuleBehavior, tool: &str, input: &Value) -> Option<RuleId> {
        self.lists[slot(b)].params.iter().copied().find(|id| {
            let rule = &self.rules[id.index()];
            let Specifier::Param { field, value } = &rule.spec else {
                return false;
            };
            rule.tool.matches(tool)
                && input
                    .get(field)
                    .and_then(scalar_text)
                    .is_some_and(|actual| wildcard(value, &actual))
        })
    }

    /// The Bash patterns of list `b`.
    pub fn bash(&self, b: RuleBehavior) -> &BashIndex {
        &self.lists[slot(b)].bash
    }

    /// A path rule of list `b` written for tool `family` (`Read`, `Edit`, `Write`, ...) matching `path`.
    pub fn path(&self, b: RuleBehavior, family: &str, path: &Path) -> Option<RuleId> {
        self.lists[slot(b)]
            .paths
            .get(family)
            .and_then(|index| index.first_match(path))
    }

    /// The path rules of list `b` written for tool `family`, each with the folder every path it matches lies in.
    pub fn path_prefixes(&self, b: RuleBehavior, family: &str) -> Vec<(RuleId, PathBuf)> {
        self.lists[slot(b)]
            .paths
            .get(family)
            .map(|index| {
                index
                    .prefixes()
                    .map(|(id, p)| (id, p.to_path_buf()))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Whether list `b` has path rules written for tool `family`.
    pub fn has_path_rules(&self, b: RuleBehavior, family: &str) -> bool {
        self.lists[slot(b)].paths.contains_key(family) || self.tool_level(b, family).is_some()
    }

    /// A domain rule of list `b` for a fetch by `tool` matching `host`: the tool's own rules, and WebFetch's rules
    /// for every tool that fetches (a `WebFetch(domain:…)` rule covers WebBrowser too, not the other way round).
    pub fn domain(&self, b: RuleBehavior, tool: &str, host: &str) -> Option<RuleId> {
        self.lists[slot(b)].domains.iter().copied().find(|id| {
            let rule = &self.rules[id.index()];
            covers_fetch(&rule.tool, tool)
                && matches!(&rule.spec, Specifier::Domain(p) if domain_matches(p, host))
        })
    }

    /// A domain rule of list `b` for a fetch by `tool` written for exactly `host` (no wildcard).
    pub fn exact_domain(&self, b: RuleBehavior, tool: &str, host: &str) -> Option<RuleId> {
        self.lists[slot(b)].domains.iter().copied().find(|id| {
            let rule = &self.rules[id.index()];
            covers_fetch(&rule.tool, tool)
                && matches!(&rule.spec, Specifier::Domain(p) if p == host)
        })
    }

    /// A name rule (`Agent(Explore)`, `Skill(name)`) of list `b` for `tool` matching `name`.
    pub fn name(&self, b: RuleBehavior, tool: &str, name: &str) -> Option<RuleId> {
        self.lists[slot(b)].names.iter().copied().find(|id| {
            let rule = &self.rules[id.index()];
            rule.tool.matches(tool) && matches!(&rule.spec, Specifier::Name(p) if wildcard(p, name))
        })
    }

    /// Whether a bare-name deny rule removes `tool` from the pool the model sees.
    pub fn hides(&self, tool: &str) -> bool {
        self.tool_level(RuleBehavior::Deny, tool).is_some()
    }
}

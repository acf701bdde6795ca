//! The `hooks` section of settings files: events, matchers and commands, from every source (docs/hooks.md §1).

use std::collections::BTreeMap;

use regex::Regex;
use serde_json::Value;

use super::hook_event::HookEvent;
use super::json_words::{json_kind, json_shown};
use super::source::{RuleSource, SettingsIssue};

/// Default timeout of a command hook, in seconds.
pub const DEFAULT_TIMEOUT_SECS: u64 = 600;

/// One command to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookCommand {
    pub command: String,
    pub timeout_secs: u64,
    pub source: RuleSource,
    /// The folder of the plugin that brings the hook, if one does: the hook runs with `CLAUDE_PLUGIN_ROOT` set to it.
    pub plugin_root: Option<std::path::PathBuf>,
}

/// A matcher and its commands.
#[derive(Debug, Clone)]
pub struct HookMatcher {
    /// The matcher as written (`None`, `""` or `"*"`: every tool).
    pub pattern: Option<String>,
    regex: Option<Regex>,
    pub hooks: Vec<HookCommand>,
}

impl HookMatcher {
    /// Whether this matcher applies to `subject`: the tool's name for tool events, or what else the event's
    /// matchers name (see [`HookEvent::has_matcher`]); always for events whose matchers are ignored.
    pub fn matches(&self, event: HookEvent, tool: Option<&str>) -> bool {
        if !event.has_matcher() {
            return true;
        }
        match (&self.regex, tool) {
            (None, _) => true,
            (Some(re), Some(tool)) => re.is_match(tool),
            (Some(_), None) => false,
        }
    }
}

/// Every configured hook, by event. A snapshot: changes on disk make a new set after the user reviews them.
#[derive(Debug, Clone, Default)]
pub struct HookSet {
    pub events: BTreeMap<HookEvent, Vec<HookMatcher>>,
}

impl PartialEq for HookSet {
    fn eq(&self, other: &Self) -> bool {
        self.fingerprint() == other.fingerprint()
    }
}

impl Eq for HookSet {}

impl HookSet {
    /// Whether no hook is configured.
    pub fn is_empty(&self) -> bool {
        self.events
            .values()
            .all(|m| m.iter().all(|m| m.hooks.is_empty()))
    }

    /// The commands for `event` on `tool`, de-duplicated (identical commands run once), in configuration order.
    pub fn commands_for(&self, event: HookEvent, tool: Option<&str>) -> Vec<HookCommand> {
        let mut out: Vec<HookCommand> = Vec::new();
        for m in self.events.get(&event).into_iter().flatten() {
            if !m.matches(event, tool) {
                continue;
            }
            for h in &m.hooks {
                if !out.iter().any(|o| o.command == h.command) {
                    out.push(h.clone());
                }
            }
        }
        out
    }

    /// A text that changes whenever the configured hooks change (to detect edits that need review).
    pub fn fingerprint(&self) -> String {
        let mut out = String::new();
        for (event, matchers) in &self.events {
            for m in matchers {
                for h in &m.hooks {
                    out.push_str(&format!(
                        "{event}\t{}\t{}\t{}\t{}\n",
                        m.pattern.as_deref().unwrap_or(""),
                        h.command,
                        h.timeout_secs,
                        h.source.label()
                    ));
                }
            }
        }
        out
    }

    /// The same hooks marked as a plugin's: each runs with `CLAUDE_PLUGIN_ROOT` set to `root`.
    pub fn of_plugin(mut self, root: &std::path::Path) -> Self {
        for hook in self
            .events
            .values_mut()
            .flat_map(|matchers| matchers.iter_mut())
            .flat_map(|m| m.hooks.iter_mut())
        {
            hook.plugin_root = Some(root.to_path_buf());
        }
        self
    }

    /// Adds the hooks of another source after these.
    pub fn extend(&mut self, other: HookSet) {
        for (event, matchers) in other.events {
            self.events.entry(event).or_default().extend(matchers);
        }
    }

    /// Only the hooks whose source passes `keep`.
    pub fn filtered(&self, keep: impl Fn(&RuleSource) -> bool) -> HookSet {
        let mut out = HookSet::default();
        for (event, matchers) in &self.events {
            let kept: Vec<HookMatcher> = matchers
                .iter()
                .map(|m| HookMatcher {
                    pattern: m.pattern.clone(),
                    regex: m.regex.clone(),
                    hooks: m
                        .hooks
                        .iter()
                        .filter(|h| keep(&h.source))
                        .cloned()
                        .collect(),
                })
                .filter(|m| !m.hooks.is_empty())
                .collect();
            if !kept.is_empty() {
                out.events.insert(*event, kept);
            }
        }
        out
    }
}

/// Parses the `hooks` value of one settings file. Problems are reported into `issues`; what is valid is kept.
pub fn parse_hooks(value: &Value, source: &RuleSource, issues: &mut Vec<SettingsIssue>) -> HookSet {
    let mut set = HookSet::default();
    let file = source.label();
    let mut report = |message: String| {
        issues.push(SettingsIssue {
            file: file.clone(),
            rule: None,
            message,
        })
    };
    let Some(events) = value.as_object() else {
        report("`hooks` must be an object of events".into());
        return set;
    };
    for (name, groups) in events {
        let Some(event) = HookEvent::parse(name) else {
            report(format!("unknown hook event `{name}`"));
            continue;
        };
        let Some(groups) = groups.as_array() else {
            report(format!("hooks.{event} must be an array"));
            continue;
        };
        for (n, group) in groups.iter().enumerate() {
            let at = format!("hooks.{event}[{n}]");
            if !group.is_object() {
                report(format!(
                    "{at} must be an object with `matcher` and `hooks`, not {}; it is not applied",
                    json_kind(group)
                ));
                continue;
            }
            let pattern = match group.get("matcher") {
                None | Some(Value::Null) => None,
                Some(Value::String(p)) => Some(p.clone()),
                Some(other) => {
                    report(format!(
                        "{at}.matcher must be a string (a regular expression over tool names), not {}; this group \
                         of hooks is not applied",
                        json_shown(other)
                    ));
                    continue;
                }
            };
            let regex = match pattern.as_deref() {
                None | Some("") | Some("*") => None,
                Some(p) => match Regex::new(&format!("^(?:{p})$")) {
                    Ok(re) => Some(re),
                    Err(e) => {
                        report(format!(
                            "hooks.{event}: the matcher `{p}` is not a regular expression: {e}"
                        ));
                        continue;
                    }
                },
            };
            let mut hooks = Vec::new();
            let listed = match group.get("hooks") {
                Some(Value::Array(listed)) => listed.as_slice(),
                None => &[],
                Some(other) => {
                    report(format!(
                        "{at}.hooks must be an array of hooks, not {}; it is not applied",
                        json_kind(other)
                    ));
                    &[]
                }
            };
            for (i, hook) in listed.iter().enumerate() {
                let at = format!("{at}.hooks[{i}]");
                let kind = match hook.get("type") {
                    None => "command",
                    Some(Value::String(kind)) => kind.as_str(),
                    Some(other) => {
                        report(format!(
                            "{at}.type must be a string (\"command\"), not {}; the hook is not run",
                            json_shown(other)
                        ));
                        continue;
                    }
                };
                if kind != "command" {
                    report(format!("{at}: hook type `{kind}` is not supported"));
                    continue;
                }
                let command = match hook.get("command") {
                    Some(Value::String(command)) => command,
                    None => {
                        report(format!("{at} has no `command`; it is not run"));
                        continue;
                    }
                    Some(other) => {
                        report(format!(
                            "{at}.command must be a string, not {}; the hook is not run",
                            json_shown(other)
                        ));
                        continue;
                    }
                };
                let timeout_secs = match hook.get("timeout") {
                    None | Some(Value::Null) => DEFAULT_TIMEOUT_SECS,
                    Some(Value::Number(n)) if n.as_f64().is_some_and(|t| t > 0.0) => {
                        n.as_f64().map_or(DEFAULT_TIMEOUT_SECS, |t| t.ceil() as u64)
                    }
                    Some(other) => {
                        report(format!(
                            "{at}.timeout must be a positive number of seconds, not {}; the default of {} s \
                             applies",
                            json_shown(other),
                            DEFAULT_TIMEOUT_SECS
                        ));
                        DEFAULT_TIMEOUT_SECS
                    }
                };
                hooks.push(HookCommand {
                    command: command.to_string(),
                    timeout_secs,
                    source: source.clone(),
                    plugin_root: None,
                });
            }
            if !hooks.is_empty() {
                set.events.entry(event).or_default().push(HookMatcher {
                    pattern,
                    regex,
                    hooks,
                });
            }
        }
    }
    set
}

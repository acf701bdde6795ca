//! `tandem permissions list`: the effective rules of a folder with their sources, the invalid ones, and the hooks.

use std::path::PathBuf;

use serde::Serialize;
use tandem_engine::permission::SettingsIssue;
use tandem_protocol::PermissionMode;

use super::check::{CheckOptions, context_for};

/// One effective rule with its source.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ListedRule {
    pub behavior: &'static str,
    pub rule: String,
    pub source: String,
    pub kind: &'static str,
}

/// One configured hook.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ListedHook {
    pub event: String,
    pub matcher: Option<String>,
    pub command: String,
    pub timeout: u64,
    pub source: String,
}

/// `tandem permissions list`: the effective rules with their sources, and the invalid ones.
#[derive(Debug, Clone, Serialize)]
pub struct ListAnswer {
    pub mode: PermissionMode,
    pub working_dirs: Vec<PathBuf>,
    pub rules: Vec<ListedRule>,
    pub invalid: Vec<SettingsIssue>,
    pub hooks: Vec<ListedHook>,
}

/// Lists the effective rules of the folder in `opts.cwd`: deny rules first, then ask, then allow.
pub fn list(opts: &CheckOptions) -> Result<ListAnswer, String> {
    let ctx = context_for(opts)?;
    let mut rules: Vec<ListedRule> = ctx
        .rules
        .rules()
        .iter()
        .map(|r| ListedRule {
            behavior: r.behavior.as_str(),
            rule: r.text.clone(),
            source: r.source.label(),
            kind: r.source.kind(),
        })
        .collect();
    let order = |b: &str| match b {
        "deny" => 0,
        "ask" => 1,
        _ => 2,
    };
    rules.sort_by_key(|r| order(r.behavior));
    let mut hooks = Vec::new();
    for (event, matchers) in &ctx.hooks.events {
        for m in matchers {
            for h in &m.hooks {
                hooks.push(ListedHook {
                    event: event.to_string(),
                    matcher: m.pattern.clone(),
                    command: h.command.clone(),
                    timeout: h.timeout_secs,
                    source: h.source.label(),
                });
            }
        }
    }
    Ok(ListAnswer {
        mode: ctx.mode,
        working_dirs: ctx.working_dirs.clone(),
        rules,
        invalid: (*ctx.issues).clone(),
        hooks,
    })
}

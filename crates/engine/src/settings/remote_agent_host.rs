//! The `remoteAgentHost` key of settings files: `"ssh://[user@]host[:port]/abs/path"`, the machine and folder where
//! the Agent tool's `isolation: "remote"` sub-agents run (`tandem acp` there over SSH; docs/remote.md, "Remote
//! sub-agents"). The highest-priority source that sets it decides; the project's shared settings file
//! (`.claude/settings.json`, which comes with a cloned repository) cannot, so that a repository never sends its
//! sub-agents to a machine of its choosing.

use serde_json::Value;

use super::json_words::json_shown;
use super::source::{RuleSource, SettingsIssue};

/// The settings key naming the machine of remote sub-agents.
pub const REMOTE_AGENT_HOST_KEY: &str = "remoteAgentHost";

/// The host of one settings object, unless a higher-priority source set it already (`found`); a value that is not
/// a string, or one in the project's shared file, is reported and ignored. The URL itself is read when a sub-agent
/// starts (its error names the setting then).
pub(super) fn add(
    found: &mut Option<(String, RuleSource)>,
    source: &RuleSource,
    value: &Value,
    issues: &mut Vec<SettingsIssue>,
) {
    let Some(host) = value.get(REMOTE_AGENT_HOST_KEY) else {
        return;
    };
    let report = |issues: &mut Vec<SettingsIssue>, message: String| {
        issues.push(SettingsIssue {
            file: source.label(),
            rule: None,
            message,
        })
    };
    if matches!(source, RuleSource::Project(_)) {
        report(
            issues,
            format!(
                "`{REMOTE_AGENT_HOST_KEY}` is not read from the project's shared settings file (a repository does \
                 not choose where your sub-agents run); put it in .claude/settings.local.json or your own settings"
            ),
        );
        return;
    }
    match host.as_str().map(str::trim) {
        Some(url) if !url.is_empty() => {
            if found.is_none() {
                *found = Some((url.to_string(), source.clone()));
            }
        }
        _ => report(
            issues,
            format!(
                "`{REMOTE_AGENT_HOST_KEY}` must be a URL such as \"ssh://user@host/path\", not {}",
                json_shown(host)
            ),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::path::PathBuf;

    #[test]
    fn the_first_source_decides_and_the_shared_project_file_cannot() {
        let local = RuleSource::Local(PathBuf::from("/p/.claude/settings.local.json"));
        let project = RuleSource::Project(PathBuf::from("/p/.claude/settings.json"));
        let user = RuleSource::User(PathBuf::from("/h/.claude/settings.json"));
        // The sources in priority order, the host they give, how many problems they report.
        type Case<'a> = (&'a [(&'a RuleSource, Value)], Option<&'a str>, usize);
        let table: &[Case<'_>] = &[
            (&[], None, 0),
            (
                &[(&local, json!({"remoteAgentHost": "ssh://a/p"}))],
                Some("ssh://a/p"),
                0,
            ),
            (
                &[
                    (&local, json!({"remoteAgentHost": "ssh://a/p"})),
                    (&user, json!({"remoteAgentHost": "ssh://b/p"})),
                ],
                Some("ssh://a/p"),
                0,
            ),
            (
                &[
                    (&project, json!({"remoteAgentHost": "ssh://evil/p"})),
                    (&user, json!({"remoteAgentHost": "ssh://b/p"})),
                ],
                Some("ssh://b/p"),
                1,
            ),
            (&[(&user, json!({"remoteAgentHost": 7}))], None, 1),
            (&[(&user, json!({"remoteAgentHost": "  "}))], None, 1),
        ];
        for (sources, want, problems) in table {
            let (mut found, mut issues) = (None, Vec::new());
            for (source, value) in sources.iter() {
                add(&mut found, source, value, &mut issues);
            }
            assert_eq!(found.map(|(url, _)| url).as_deref(), *want, "{sources:?}");
            assert_eq!(issues.len(), *problems, "{issues:?}");
        }
    }
}

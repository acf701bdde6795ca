//! The `enabledPlugins` key of settings files: `{"<plugin>@<marketplace>": true | false}`, kept per source so that
//! the `plugins` module can tell which file decides each plugin (docs/plugins.md §3).

use serde_json::Value;

use super::json_words::json_shown;
use super::source::{RuleSource, SettingsIssue};

/// The settings key that switches installed plugins on and off.
pub const ENABLED_PLUGINS_KEY: &str = "enabledPlugins";

/// One entry of an `enabledPlugins` object: a plugin id switched on or off by one source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PluginSwitch {
    /// `name@marketplace` as written.
    pub id: String,
    pub on: bool,
    pub source: RuleSource,
}

/// Adds the `enabledPlugins` entries of one settings object to `out`; a value that is not an object of truth values
/// is reported and the rest of the entries still apply.
pub(super) fn add(
    out: &mut Vec<PluginSwitch>,
    source: &RuleSource,
    value: &Value,
    issues: &mut Vec<SettingsIssue>,
) {
    let Some(map) = value.get(ENABLED_PLUGINS_KEY) else {
        return;
    };
    let report = |issues: &mut Vec<SettingsIssue>, message: String| {
        issues.push(SettingsIssue {
            file: source.label(),
            rule: None,
            message,
        })
    };
    let Some(map) = map.as_object() else {
        report(
            issues,
            format!(
                "`{ENABLED_PLUGINS_KEY}` must be an object of plugin ids and true or false, not {}",
                json_shown(map)
            ),
        );
        return;
    };
    for (id, on) in map {
        match on.as_bool() {
            Some(on) => out.push(PluginSwitch {
                id: id.clone(),
                on,
                source: source.clone(),
            }),
            None => report(
                issues,
                format!(
                    "`{ENABLED_PLUGINS_KEY}.{id}` must be true or false, not {}; the plugin is left as the other \
                     settings files say",
                    json_shown(on)
                ),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn switches_are_kept_with_their_source_and_bad_values_reported() {
        let source = RuleSource::Project(PathBuf::from("/p/.claude/settings.json"));
        let mut out = Vec::new();
        let mut issues = Vec::new();
        add(
            &mut out,
            &source,
            &serde_json::json!({"enabledPlugins": {"a@m": true, "b@m": false, "c@m": "yes"}}),
            &mut issues,
        );
        assert_eq!(
            out.iter()
                .map(|s| (s.id.as_str(), s.on))
                .collect::<Vec<_>>(),
            [("a@m", true), ("b@m", false)]
        );
        assert_eq!(issues.len(), 1, "{issues:?}");
        assert!(issues[0].message.contains("c@m"), "{issues:?}");
        add(
            &mut out,
            &source,
            &serde_json::json!({"enabledPlugins": ["a@m"]}),
            &mut issues,
        );
        assert_eq!(issues.len(), 2);
    }
}

//! An agent's own hooks: `hooks:` in its file's frontmatter, in the settings files' format written as YAML, in force
//! while that agent runs. Its `Stop` hooks run when it stops, as SubagentStop hooks.

use serde_json::{Map, Value};
use yaml_rust2::{Yaml, YamlLoader};

use crate::settings::{HookSet, RuleSource, parse_hooks};

/// The hooks of the frontmatter block `block` of a file from `source`, and what is wrong in it (each problem
/// leaves out only what it concerns).
pub fn agent_hooks(block: &str, source: &RuleSource) -> (HookSet, Vec<String>) {
    let documents = match YamlLoader::load_from_str(block) {
        Ok(documents) => documents,
        Err(e) => {
            return (
                HookSet::default(),
                vec![format!("`hooks` is not valid YAML: {e}")],
            );
        }
    };
    let mut value = documents.first().map(to_json).unwrap_or(Value::Null);
    if let Some(events) = value.as_object_mut()
        && let Some(stop) = events.remove("Stop")
    {
        // An agent's end is a sub-agent's stop.
        match events.get_mut("SubagentStop") {
            Some(Value::Array(groups)) => {
                groups.extend(stop.as_array().into_iter().flatten().cloned())
            }
            _ => {
                events.insert("SubagentStop".into(), stop);
            }
        }
    }
    let mut issues = Vec::new();
    let hooks = parse_hooks(&value, source, &mut issues);
    (
        hooks,
        issues
            .into_iter()
            .map(|i| format!("hooks: {}", i.message))
            .collect(),
    )
}

/// A YAML value as JSON (keys as text; aliases and bad values as null).
fn to_json(yaml: &Yaml) -> Value {
    match yaml {
        Yaml::Real(text) => text
            .parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
            .map_or(Value::Null, Value::Number),
        Yaml::Integer(n) => Value::from(*n),
        Yaml::String(text) => Value::String(text.clone()),
        Yaml::Boolean(b) => Value::Bool(*b),
        Yaml::Array(items) => Value::Array(items.iter().map(to_json).collect()),
        Yaml::Hash(entries) => {
            let mut map = Map::new();
            for (key, value) in entries {
                let key = match key {
                    Yaml::String(text) | Yaml::Real(text) => text.clone(),
                    Yaml::Integer(n) => n.to_string(),
                    Yaml::Boolean(b) => b.to_string(),
                    _ => continue,
                };
                map.insert(key, to_json(value));
            }
            Value::Object(map)
        }
        Yaml::Alias(_) | Yaml::Null | Yaml::BadValue => Value::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::HookEvent;

    #[test]
    fn hooks_read_from_yaml_with_stop_as_subagent_stop() {
        let source = RuleSource::Project("/p/.claude/agents/guarded.md".into());
        let (hooks, issues) = agent_hooks(
            "PreToolUse:\n  - matcher: Bash\n    hooks:\n      - type: command\n        command: ./check.sh\n        timeout: 5\nStop:\n  - hooks:\n      - type: command\n        command: ./done.sh\n",
            &source,
        );
        assert!(issues.is_empty(), "{issues:?}");
        let pre = hooks.commands_for(HookEvent::PreToolUse, Some("Bash"));
        assert_eq!(pre.len(), 1);
        assert_eq!(pre[0].command, "./check.sh");
        assert_eq!(pre[0].timeout_secs, 5);
        assert!(
            hooks
                .commands_for(HookEvent::PreToolUse, Some("Read"))
                .is_empty()
        );
        assert!(hooks.commands_for(HookEvent::Stop, None).is_empty());
        let stop = hooks.commands_for(HookEvent::SubagentStop, Some("guarded"));
        assert_eq!(stop[0].command, "./done.sh");
        assert_eq!(stop[0].source, source);

        let (hooks, issues) = agent_hooks("Nonsense:\n  - hooks: []\n", &source);
        assert!(hooks.is_empty());
        assert!(
            issues[0].contains("unknown hook event `Nonsense`"),
            "{issues:?}"
        );
        let (_, issues) = agent_hooks("PreToolUse: [\n", &source);
        assert!(issues[0].contains("not valid YAML"), "{issues:?}");
    }
}

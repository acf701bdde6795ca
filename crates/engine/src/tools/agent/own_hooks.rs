//! An agent's own hooks: `hooks:` in its file's frontmatter, in the settings files' format written as YAML, in force
//! while that agent runs. Its `Stop` hooks run when it stops, as SubagentStop hooks.

use serde_json::Value;

use crate::settings::{HookSet, RuleSource, parse_hooks};

/// The hooks of the frontmatter value `hooks` of a file from `source`, and what is wrong in it (each problem leaves
/// out only what it concerns).
pub fn agent_hooks(hooks: &Value, source: &RuleSource) -> (HookSet, Vec<String>) {
    let mut value = hooks.clone();
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::frontmatter::{self, Value as Field};
    use crate::settings::HookEvent;

    /// The `hooks:` value of a frontmatter block holding `yaml` under it.
    fn hooks_value(yaml: &str) -> Value {
        let indented: String = yaml.lines().map(|l| format!("  {l}\n")).collect();
        let doc = frontmatter::parse(&format!("---\nhooks:\n{indented}---\n")).expect("parses");
        match doc.get("hooks") {
            Some(Field::Block(value)) => value.clone(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn hooks_read_from_yaml_with_stop_as_subagent_stop() {
        let source = RuleSource::Project("/p/.claude/agents/guarded.md".into());
        let (hooks, issues) = agent_hooks(
            &hooks_value(
                "PreToolUse:\n  - matcher: Bash\n    hooks:\n      - type: command\n        command: ./check.sh\n        timeout: 5\nStop:\n  - hooks:\n      - type: command\n        command: ./done.sh\n",
            ),
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

        let (hooks, issues) = agent_hooks(&hooks_value("Nonsense:\n  - hooks: []\n"), &source);
        assert!(hooks.is_empty());
        assert!(
            issues[0].contains("unknown hook event `Nonsense`"),
            "{issues:?}"
        );
    }
}

//! Turning an installed plugin on or off from the window: `enabledPlugins.<id>` is set in the settings file that
//! should hold the choice, every other key of the file kept, written through a temporary file and a rename. The
//! file is the one whose entry decides now — except the project's shared file, which the person's choice does not
//! rewrite for everyone: the project's local file (which ranks above it) takes the entry instead. A plugin no file
//! names goes to the file of its install scope (user, project or local). The managed policy and `--settings` files
//! are not edited here.

use std::path::PathBuf;

use serde_json::Value;

use super::loader::PermissionLoader;
use super::rule_file::{SaveError, set_key};
use crate::plugins::Plugin;
use crate::settings::{ENABLED_PLUGINS_KEY, RuleSource};

/// The settings file the switch of `plugin` writes to.
pub fn plugin_switch_file(
    loader: &PermissionLoader,
    plugin: &Plugin,
) -> Result<PathBuf, SaveError> {
    let user = || {
        loader.paths.user.clone().ok_or(SaveError::NotEditable {
            scope: "userSettings (no home directory)",
        })
    };
    match &plugin.decided_by {
        Some(RuleSource::Local(_) | RuleSource::Project(_)) => Ok(loader.paths.local.clone()),
        Some(RuleSource::User(path)) => Ok(path.clone()),
        Some(other) => Err(SaveError::NotEditable {
            scope: other.kind(),
        }),
        None => match plugin.scope.as_deref() {
            Some("project") => Ok(loader.paths.project.clone()),
            Some("local") => Ok(loader.paths.local.clone()),
            _ => user(),
        },
    }
}

/// Sets `enabledPlugins.<id>` to `on` in the settings file `file` (created, with its folder, if needed).
pub fn set_plugin_enabled(file: &std::path::Path, id: &str, on: bool) -> Result<(), SaveError> {
    set_key(file, &[ENABLED_PLUGINS_KEY, id], Value::Bool(on))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_switch_keeps_every_other_key_and_refuses_a_file_it_would_spoil() {
        let dir = tempfile::tempdir().expect("dir");
        let file = dir.path().join(".claude/settings.local.json");
        set_plugin_enabled(&file, "a@m", true).expect("created");
        std::fs::write(
            &file,
            json!({"permissions": {"allow": ["Read"]}, "enabledPlugins": {"a@m": true, "b@m": true}}).to_string(),
        )
        .expect("write");
        set_plugin_enabled(&file, "a@m", false).expect("saved");
        let saved: Value =
            serde_json::from_str(&std::fs::read_to_string(&file).expect("read")).expect("json");
        assert_eq!(
            saved,
            json!({"permissions": {"allow": ["Read"]}, "enabledPlugins": {"a@m": false, "b@m": true}})
        );
        std::fs::write(&file, "{\"enabledPlugins\": [] }").expect("write");
        assert!(set_plugin_enabled(&file, "a@m", true).is_err());
        std::fs::write(&file, "{\n// mine\n\"x\": 1,\n}").expect("write");
        assert!(
            set_plugin_enabled(&file, "a@m", true).is_err(),
            "comments would be lost"
        );
        assert!(
            std::fs::read_to_string(&file)
                .expect("read")
                .contains("// mine")
        );
    }
}

//! A temporary project with a home folder and a folder outside it, for permission tests: contexts built from rule
//! lists as if they came from the project's settings file, and one-call checks.

use std::path::PathBuf;

use serde_json::{Value, json};
use tandem_protocol::PermissionMode;

use crate::permission::{
    CheckAnswer, ContextOptions, LoadedSettings, PermissionContext, RuleSource, check_call,
};
use crate::registry::builtin_tools;

/// `base/proj` (with `src/` and `README.md`), `base/home` and `base/elsewhere`, all canonical.
pub struct Project {
    _dir: tempfile::TempDir,
    /// The project root.
    pub root: PathBuf,
    /// The home folder the contexts are built with.
    pub home: PathBuf,
    /// A folder outside the project and the home.
    pub outside: PathBuf,
}

/// A permission rule as `(behavior, rule)`, the behavior being `"allow"`, `"deny"` or `"ask"`.
pub type RuleSpec<'a> = (&'a str, &'a str);

impl Project {
    /// A new project in a fresh temporary folder.
    pub fn new() -> std::io::Result<Self> {
        super::isolate_app_data();
        let dir = tempfile::tempdir()?;
        let base = std::fs::canonicalize(dir.path())?;
        let root = base.join("proj");
        let home = base.join("home");
        let outside = base.join("elsewhere");
        for d in [&root, &home, &outside] {
            std::fs::create_dir_all(d)?;
        }
        std::fs::create_dir_all(root.join("src"))?;
        std::fs::write(root.join("README.md"), "hi")?;
        Ok(Self {
            _dir: dir,
            root,
            home,
            outside,
        })
    }

    /// A settings document holding `rules` under `permissions.allow/deny/ask`, in order; an unknown behavior is
    /// put under a key of its own name, where the settings loader reports it.
    pub fn settings(&self, rules: &[RuleSpec<'_>]) -> Value {
        let mut permissions = json!({"allow": [], "deny": [], "ask": []});
        for (behavior, rule) in rules {
            if let Some(list) = permissions.as_object_mut().and_then(|o| {
                o.entry(*behavior)
                    .or_insert_with(|| json!([]))
                    .as_array_mut()
            }) {
                list.push(json!(rule));
            }
        }
        json!({ "permissions": permissions })
    }

    /// A trusted context in `mode` whose only settings are `rules` in the project's settings file.
    pub fn ctx(&self, rules: &[RuleSpec<'_>], mode: PermissionMode) -> PermissionContext {
        self.ctx_with(self.settings(rules), mode)
    }

    /// A trusted context in `mode` whose only settings are `settings`, as the project's settings file.
    pub fn ctx_with(&self, settings: Value, mode: PermissionMode) -> PermissionContext {
        let mut loaded = LoadedSettings::default();
        let file = self.root.join(".claude/settings.json");
        loaded.add_value(
            RuleSource::Project(file),
            &settings,
            &self.root,
            Some(&self.home),
        );
        PermissionContext::from_settings(
            &loaded,
            ContextOptions {
                project_root: self.root.clone(),
                cwd: Some(self.root.clone()),
                home: Some(self.home.clone()),
                trusted: true,
                mode: Some(mode),
                ..ContextOptions::default()
            },
        )
    }

    /// The absolute path of `rel` inside the project, as text.
    pub fn path(&self, rel: &str) -> String {
        self.root.join(rel).display().to_string()
    }
}

/// Checks one call of the built-in `tool` with `input` against `ctx`.
pub fn check(ctx: &PermissionContext, tool: &str, input: Value) -> CheckAnswer {
    check_call(ctx, &builtin_tools(), tool, &input)
}

/// Checks one Bash call of `command` against `ctx`.
pub fn check_bash(ctx: &PermissionContext, command: &str) -> CheckAnswer {
    check(ctx, "Bash", json!({ "command": command }))
}

//! Helpers for permission tests: a temporary project and home, contexts built from rule lists, one-call checks.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use tandem_engine::permission::{
    CheckAnswer, ContextOptions, LoadedSettings, PermissionContext, RuleSource, check_call,
};
use tandem_engine::registry::builtin_tools;
use tandem_protocol::{DecisionBehavior, PermissionMode};

pub struct Project {
    _dir: tempfile::TempDir,
    pub root: PathBuf,
    pub home: PathBuf,
    pub outside: PathBuf,
}

impl Project {
    pub fn new() -> Self {
        let dir = tempfile::tempdir().expect("tempdir");
        let base = std::fs::canonicalize(dir.path()).expect("canonical");
        let root = base.join("proj");
        let home = base.join("home");
        let outside = base.join("elsewhere");
        for d in [&root, &home, &outside] {
            std::fs::create_dir_all(d).expect("mkdir");
        }
        std::fs::create_dir_all(root.join("src")).expect("mkdir");
        std::fs::write(root.join("README.md"), "hi").expect("write");
        Self {
            _dir: dir,
            root,
            home,
            outside,
        }
    }

    pub fn settings(&self, rules: &[(&str, &str)]) -> Value {
        let mut allow = Vec::new();
        let mut deny = Vec::new();
        let mut ask = Vec::new();
        for (b, r) in rules {
            match *b {
                "allow" => allow.push(*r),
                "deny" => deny.push(*r),
                "ask" => ask.push(*r),
                other => panic!("bad behavior {other}"),
            }
        }
        json!({"permissions": {"allow": allow, "deny": deny, "ask": ask}})
    }

    pub fn ctx(&self, rules: &[(&str, &str)], mode: PermissionMode) -> PermissionContext {
        self.ctx_with(self.settings(rules), mode)
    }

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

    pub fn path(&self, rel: &str) -> String {
        self.root.join(rel).display().to_string()
    }
}

pub fn check(ctx: &PermissionContext, tool: &str, input: Value) -> CheckAnswer {
    check_call(ctx, &builtin_tools(), tool, &input)
}

pub fn bash(ctx: &PermissionContext, command: &str) -> CheckAnswer {
    check(ctx, "Bash", json!({ "command": command }))
}

pub fn parse_behavior(s: &str) -> DecisionBehavior {
    match s {
        "allow" => DecisionBehavior::Allow,
        "ask" => DecisionBehavior::Ask,
        "deny" => DecisionBehavior::Deny,
        other => panic!("bad decision {other}"),
    }
}

pub fn mode(s: &str) -> PermissionMode {
    PermissionMode::parse(s).expect("mode")
}

#[allow(dead_code)]
pub fn exists(p: &Path) -> bool {
    p.exists()
}

//! The immutable permission context of a session: mode, working directories, the rules of every source, the hook
//! snapshot, trust and whether bypass mode is available (docs/permissions.md §2). A change makes a new context; nothing
//! mutates one in place.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tandem_protocol::PermissionMode;

use super::accepted::AcceptedSettings;
use super::classifier::ClassifierHandle;
use super::path_forms::PathForms;
use super::path_pattern::{Anchors, normalise, resolve_links};
use super::rule::{RuleBehavior, RuleSource};
use super::ruleset::{RuleEntry, RuleSet, SettingsIssue};
use crate::settings::{HookSet, LoadedSettings, env_override, find_bwrap, git_root, merge_sandbox};
use crate::tool::ContextChange;
use crate::tool::SandboxConfig;

/// Everything the permission engine needs to know about a session, frozen. Shared as an `Arc`; a change (new mode,
/// new grant, reloaded settings) produces a new context rather than mutating this one.
#[derive(Debug, Clone)]
pub struct PermissionContext {
    pub mode: PermissionMode,
    /// The project root.
    pub project_root: PathBuf,
    /// The directory relative paths and `path` rules resolve against.
    pub cwd: PathBuf,
    /// The project root first, then additional working directories.
    pub working_dirs: Vec<PathBuf>,
    /// The same directories with symlinks resolved.
    resolved_dirs: Vec<PathBuf>,
    pub home: Option<PathBuf>,
    /// Every rule as written, in priority order (session grants last), before trust filtering.
    pub entries: Arc<Vec<RuleEntry>>,
    /// The rules in force, compiled.
    pub rules: Arc<RuleSet>,
    /// Problems found in settings and rules.
    pub issues: Arc<Vec<SettingsIssue>>,
    /// Settings files that exist but could not be read or parsed, with what is wrong: they may hold deny rules, so
    /// while there are any nothing runs without asking.
    pub unreadable_settings: Arc<Vec<SettingsIssue>>,
    /// Unreadable settings files the person accepted running without, each as it was on disk then (the window's
    /// "Accept and continue without this file"): while a file is unchanged, it no longer makes calls ask.
    pub accepted_unreadable: Arc<Vec<AcceptedSettings>>,
    /// The hooks in force (a snapshot; on-disk changes apply after review).
    pub hooks: Arc<HookSet>,
    /// Whether hooks from outside the settings files (an agent's frontmatter) may run: not when `disableAllHooks`
    /// or `allowManagedHooksOnly` is set.
    pub extra_hooks_allowed: bool,
    pub bypass_available: bool,
    /// A background agent with no UI: every ask becomes a deny.
    pub avoid_prompts: bool,
    /// The mode to return to when plan mode ends.
    pub pre_plan_mode: Option<PermissionMode>,
    /// Where a tool moved the session (EnterWorktree): tools start there instead of the session's folder; with the
    /// `cwd` to return to.
    pub moved_to: Option<(PathBuf, PathBuf)>,
    /// Whether the user trusts the project folder.
    pub trusted: bool,
    /// Where "Yes, and don't ask again" saves rules: `<git root>/.claude/settings.local.json`.
    pub local_settings_file: PathBuf,
    /// The classifier auto mode consults (none: auto mode asks).
    pub classifier: Option<ClassifierHandle>,
    /// The shell sandbox settings in force (they follow settings changes like rules do).
    pub sandbox: Arc<SandboxConfig>,
}

impl PartialEq for PermissionContext {
    fn eq(&self, other: &Self) -> bool {
        self.mode == other.mode
            && self.project_root == other.project_root
            && self.cwd == other.cwd
            && self.working_dirs == other.working_dirs
            && self.entries == other.entries
            && self.trusted == other.trusted
            && self.avoid_prompts == other.avoid_prompts
            && self.bypass_available == other.bypass_available
            && *self.hooks == *other.hooks
            && *self.sandbox == *other.sandbox
    }
}

/// How to build a context from loaded settings.
#[derive(Debug, Clone, Default)]
pub struct ContextOptions {
    pub project_root: PathBuf,
    /// Defaults to the project root.
    pub cwd: Option<PathBuf>,
    pub home: Option<PathBuf>,
    pub trusted: bool,
    /// A mode chosen in the UI, used when no policy or flag sets one.
    pub mode: Option<PermissionMode>,
    /// Rules granted in this session.
    pub session_rules: Vec<String>,
    pub avoid_prompts: bool,
}

fn canonical(p: &Path) -> PathBuf {
    resolve_links(&normalise(p))
}

impl PermissionContext {
    /// A context for a project folder in `mode` with no rules and no extra directories (trusted).
    pub fn new(project_root: impl Into<PathBuf>, mode: PermissionMode) -> Self {
        let project_root = project_root.into();
        let home = dirs::home_dir();
        let (rules, _) = RuleSet::build(
            &[],
            &anchors(&project_root, &project_root, home.as_deref()),
            true,
            false,
        );
        Self {
            mode,
            working_dirs: vec![project_root.clone()],
            resolved_dirs: vec![canonical(&project_root)],
            cwd: project_root.clone(),
            local_settings_file: local_file(&project_root),
            project_root,
            home,
            entries: Arc::new(Vec::new()),
            rules: Arc::new(rules),
            issues: Arc::new(Vec::new()),
            unreadable_settings: Arc::new(Vec::new()),
            accepted_unreadable: Arc::new(Vec::new()),
            hooks: Arc::new(HookSet::default()),
            extra_hooks_allowed: true,
            bypass_available: true,
            avoid_prompts: false,
            pre_plan_mode: None,
            moved_to: None,
            trusted: true,
            classifier: None,
            sandbox: Arc::new(merge_sandbox(&[], |_| true, env_override(), find_bwrap())),
        }
    }

    /// A context from loaded settings: mode, directories, rules and hooks merged as docs/permissions.md §2 says.
    pub fn from_settings(loaded: &LoadedSettings, opts: ContextOptions) -> Self {
        let mut issues = loaded.issues.clone();
        let trusted = opts.trusted;
        let project_level_ok = |s: &RuleSource| trusted || !s.is_project_level();
        let bypass_available = loaded.bypass_disabled_by.is_none();
        let mut mode = None;
        for (m, source) in &loaded.default_modes {
            if source.is_project_level() && *m == PermissionMode::BypassPermissions {
                issues.push(SettingsIssue {
                    file: source.label(),
                    rule: None,
                    message: "defaultMode bypassPermissions is ignored in project settings".into(),
                });
                continue;
            }
            if !trusted
                && source.is_project_level()
                && !matches!(
                    m,
                    PermissionMode::Default | PermissionMode::Plan | PermissionMode::DontAsk
                )
            {
                continue;
            }
            if matches!(
                source,
                RuleSource::Policy(_) | RuleSource::CliArg | RuleSource::FlagFile(_)
            ) || opts.mode.is_none()
            {
                mode = Some(*m);
                break;
            }
        }
        let mut mode = mode.or(opts.mode).unwrap_or_default();
        if mode == PermissionMode::BypassPermissions && !bypass_available {
            issues.push(SettingsIssue {
                file: loaded
                    .bypass_disabled_by
                    .as_ref()
                    .map(|s| s.label())
                    .unwrap_or_default(),
                rule: None,
                message: "bypassPermissions mode is disabled by disableBypassPermissionsMode; using default".into(),
            });
            mode = PermissionMode::Default;
        }
        let project_root = opts.project_root.clone();
        let cwd = opts.cwd.clone().unwrap_or_else(|| project_root.clone());
        let mut working_dirs = vec![project_root.clone()];
        for (dir, source) in &loaded.additional_dirs {
            if project_level_ok(source) && !working_dirs.contains(dir) {
                working_dirs.push(normalise(dir));
            }
        }
        let mut entries = loaded.entries.clone();
        entries.extend(opts.session_rules.iter().map(|text| RuleEntry {
            source: RuleSource::Session,
            behavior: RuleBehavior::Allow,
            text: text.clone(),
        }));
        let hooks = if loaded.disable_all_hooks {
            HookSet::default()
        } else {
            loaded.hooks.filtered(|s| {
                project_level_ok(s)
                    && (!loaded.managed_hooks_only || matches!(s, RuleSource::Policy(_)))
            })
        };
        let mut ctx = Self {
            mode,
            resolved_dirs: working_dirs.iter().map(|d| canonical(d)).collect(),
            working_dirs,
            cwd,
            local_settings_file: local_file(&project_root),
            project_root,
            home: opts.home,
            entries: Arc::new(entries),
            rules: Arc::new(RuleSet::default()),
            issues: Arc::new(Vec::new()),
            unreadable_settings: Arc::new(loaded.unreadable.clone()),
            accepted_unreadable: Arc::new(Vec::new()),
            hooks: Arc::new(hooks),
            extra_hooks_allowed: !loaded.disable_all_hooks && !loaded.managed_hooks_only,
            bypass_available,
            avoid_prompts: opts.avoid_prompts,
            pre_plan_mode: None,
            moved_to: None,
            trusted,
            classifier: None,
            sandbox: Arc::new(merge_sandbox(
                &loaded.sandbox,
                project_level_ok,
                env_override(),
                find_bwrap(),
            )),
        };
        let (rules, rule_issues) = RuleSet::build(
            &ctx.entries,
            &ctx.anchors(),
            trusted,
            mode == PermissionMode::Auto,
        );
        issues.extend(rule_issues);
        ctx.rules = Arc::new(rules);
        ctx.issues = Arc::new(issues);
        ctx
    }

    /// The anchors path rules resolve against.
    pub fn anchors(&self) -> Anchors {
        anchors(&self.cwd, &self.project_root, self.home.as_deref())
    }

    /// The same context in another mode (bypass falls back to default when it is disabled; entering plan mode
    /// remembers the mode to return to).
    pub fn with_mode(&self, mode: PermissionMode) -> Self {
        let mode = if mode == PermissionMode::BypassPermissions && !self.bypass_available {
            PermissionMode::Default
        } else {
            mode
        };
        let pre_plan_mode = match (self.mode, mode) {
            (m, PermissionMode::Plan) if m != PermissionMode::Plan => Some(m),
            (_, PermissionMode::Plan) => self.pre_plan_mode,
            _ => None,
        };
        Self {
            pre_plan_mode,
            ..self.clone()
        }
        .in_mode(mode)
    }

    /// The same context with `mode` set and nothing else decided: entering or leaving auto mode recompiles the
    /// rules, since auto mode sets aside the allow rules that would let any code run (leaving it brings them back).
    pub fn in_mode(&self, mode: PermissionMode) -> Self {
        let recompile = (self.mode == PermissionMode::Auto) != (mode == PermissionMode::Auto);
        let next = Self {
            mode,
            ..self.clone()
        };
        if recompile {
            next.with_entries((*next.entries).clone())
        } else {
            next
        }
    }

    /// Whether auto mode can judge calls here: a classifier is attached.
    pub fn auto_available(&self) -> bool {
        self.classifier.is_some()
    }

    /// The allow rules auto mode sets aside in this context (none outside auto mode), each with why.
    pub fn set_aside_rules(&self) -> Vec<(RuleEntry, String)> {
        if self.mode != PermissionMode::Auto {
            return Vec::new();
        }
        self.entries
            .iter()
            .filter_map(|entry| {
                let text = entry.text.trim();
                let parsed = super::rule::parse_rule(text, entry.behavior).ok()?;
                super::auto_set_aside::set_aside_reason(text, entry.behavior, &parsed)
                    .map(|why| (entry.clone(), why))
            })
            .collect()
    }

    /// The same context after a change a tool asked for.
    pub fn apply(&self, change: &ContextChange) -> Self {
        match change {
            ContextChange::SetMode(mode) => self.with_mode(*mode),
            ContextChange::AddWorkingDir(dir) => self.with_working_dir(dir),
            ContextChange::AllowRules(rules) => self.with_session_rules(rules),
            ContextChange::LeavePlanMode(mode) => self.leaving_plan_mode(*mode),
            ContextChange::MoveTo(dir) => self.moved(dir.as_deref()),
        }
    }

    /// The same context with the session moved into `dir` (a working directory from now on; relative paths
    /// resolve there), or back where it was (`None`).
    pub fn moved(&self, dir: Option<&Path>) -> Self {
        match dir {
            Some(dir) => {
                let from = match &self.moved_to {
                    Some((_, from)) => from.clone(),
                    None => self.cwd.clone(),
                };
                let mut next = self.with_working_dir(dir);
                next.cwd = dir.to_path_buf();
                next.moved_to = Some((dir.to_path_buf(), from));
                next
            }
            None => {
                let mut next = self.clone();
                if let Some((_, from)) = next.moved_to.take() {
                    next.cwd = from;
                }
                next
            }
        }
    }

    /// Where tools start: where the session was moved to, else `default` (the session's folder).
    pub fn tool_cwd(&self, default: &Path) -> PathBuf {
        match &self.moved_to {
            Some((dir, _)) => dir.clone(),
            None => default.to_path_buf(),
        }
    }

    /// The same context out of plan mode: in `mode`, or else in the mode active before plan mode (default when
    /// none is known). Outside plan mode only an explicit `mode` changes anything.
    pub fn leaving_plan_mode(&self, mode: Option<PermissionMode>) -> Self {
        if self.mode != PermissionMode::Plan {
            return match mode {
                Some(mode) => self.with_mode(mode),
                None => self.clone(),
            };
        }
        let next = mode
            .or(self.pre_plan_mode)
            .filter(|m| *m != PermissionMode::Plan)
            .unwrap_or_default();
        self.with_mode(next)
    }

    /// The same context with one more working directory (absolute; ignored when already inside one).
    pub fn with_working_dir(&self, dir: &Path) -> Self {
        let dir = normalise(dir);
        if self.working_dirs.iter().any(|d| dir.starts_with(d)) {
            return self.clone();
        }
        let mut working_dirs = self.working_dirs.clone();
        let mut resolved_dirs = self.resolved_dirs.clone();
        resolved_dirs.push(canonical(&dir));
        working_dirs.push(dir);
        Self {
            working_dirs,
            resolved_dirs,
            ..self.clone()
        }
    }

    /// The same context with more session grants (allow rules).
    pub fn with_session_rules(&self, rules: &[String]) -> Self {
        let mut entries = (*self.entries).clone();
        for text in rules {
            let entry = RuleEntry {
                source: RuleSource::Session,
                behavior: RuleBehavior::Allow,
                text: text.clone(),
            };
            if !entries.contains(&entry) {
                entries.push(entry);
            }
        }
        self.with_entries(entries)
    }

    /// The same context with other rule entries (recompiled).
    pub fn with_entries(&self, entries: Vec<RuleEntry>) -> Self {
        let (rules, mut issues) = RuleSet::build(
            &entries,
            &self.anchors(),
            self.trusted,
            self.mode == PermissionMode::Auto,
        );
        let mut all: Vec<SettingsIssue> = self
            .issues
            .iter()
            .filter(|i| i.rule.is_none())
            .cloned()
            .collect();
        all.append(&mut issues);
        Self {
            entries: Arc::new(entries),
            rules: Arc::new(rules),
            issues: Arc::new(all),
            ..self.clone()
        }
    }

    /// The same context with a hook snapshot.
    pub fn with_hooks(&self, hooks: HookSet) -> Self {
        Self {
            hooks: Arc::new(hooks),
            ..self.clone()
        }
    }

    /// The same context with other sandbox settings.
    pub fn with_sandbox(&self, sandbox: SandboxConfig) -> Self {
        Self {
            sandbox: Arc::new(sandbox),
            ..self.clone()
        }
    }

    /// The same context with a classifier for auto mode.
    pub fn with_classifier(&self, classifier: ClassifierHandle) -> Self {
        Self {
            classifier: Some(classifier),
            ..self.clone()
        }
    }

    /// The same context for a background agent that cannot ask.
    pub fn avoiding_prompts(&self) -> Self {
        Self {
            avoid_prompts: true,
            ..self.clone()
        }
    }

    /// Whether `path` (absolute, normalised) lies inside one of the working directories.
    pub fn is_inside_working_dirs(&self, path: &Path) -> bool {
        self.working_dirs.iter().any(|dir| path.starts_with(dir))
            || self.resolved_dirs.iter().any(|dir| path.starts_with(dir))
    }

    /// Whether both the path and its symlink-resolved target lie inside the working directories.
    pub(crate) fn inside_working_dirs(&self, forms: &PathForms) -> bool {
        self.is_inside_working_dirs(&forms.lexical)
            && self
                .resolved_dirs
                .iter()
                .any(|d| forms.resolved.starts_with(d))
    }
}

fn anchors(cwd: &Path, project_root: &Path, home: Option<&Path>) -> Anchors {
    Anchors {
        cwd: cwd.to_path_buf(),
        project_root: project_root.to_path_buf(),
        home: home.map(Path::to_path_buf),
    }
}

fn local_file(project_root: &Path) -> PathBuf {
    git_root(project_root)
        .unwrap_or_else(|| project_root.to_path_buf())
        .join(".claude")
        .join("settings.local.json")
}

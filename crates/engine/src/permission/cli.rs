//! `tandem permissions check` and `tandem permissions list`: the logic behind the command line. The CLI wrapper
//! parses flags into these option structs and prints the serialised answers.

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tandem_protocol::{DecisionBehavior, DecisionSource, PermissionMode};

use super::context::{ContextOptions, PermissionContext};
use super::decide::{CallView, decide};
use super::rule::canonical_tool_name;
use super::ruleset::SettingsIssue;
use super::settings::{CliSettings, SettingsPaths, load_settings, managed_settings_path};
use super::subject::PermissionSubject;
use crate::registry::builtin_tools;
use crate::tool::ToolContext;

/// Options of `permissions check` (and the defaults of `--batch` lines).
#[derive(Debug, Clone, Default)]
pub struct CheckOptions {
    pub tool: String,
    pub input: Value,
    /// The folder the call runs in (the project, treated as trusted); defaults to the current directory.
    pub cwd: Option<PathBuf>,
    pub mode: Option<PermissionMode>,
    pub add_dirs: Vec<PathBuf>,
    /// `--settings FILE`, highest priority after the managed policy.
    pub settings_files: Vec<PathBuf>,
    /// Overrides the home directory (default: `$HOME`).
    pub home: Option<PathBuf>,
    /// Overrides the managed policy file (default: `/etc/claude-code/managed-settings.json`).
    pub managed_settings: Option<PathBuf>,
}

/// One answer line: `{"decision", "reason", "rule", "source", "decided_by"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckAnswer {
    pub decision: DecisionBehavior,
    pub reason: String,
    pub rule: Option<String>,
    pub source: Option<String>,
    /// What decided, typed (`null` when the check could not be made).
    #[serde(default)]
    pub decided_by: Option<DecisionSource>,
}

impl CheckAnswer {
    fn error(reason: String) -> Self {
        Self {
            decision: DecisionBehavior::Deny,
            reason,
            rule: None,
            source: None,
            decided_by: None,
        }
    }
}

fn folder(cwd: Option<&Path>) -> Result<PathBuf, String> {
    let dir = match cwd {
        Some(d) => d.to_path_buf(),
        None => std::env::current_dir().map_err(|e| format!("no current directory: {e}"))?,
    };
    std::fs::canonicalize(&dir)
        .map_err(|e| format!("the folder {} cannot be opened: {e}", dir.display()))
}

/// The permission context `permissions check` uses: settings from the same places as the app, the folder trusted.
pub fn context_for(opts: &CheckOptions) -> Result<PermissionContext, String> {
    let root = folder(opts.cwd.as_deref())?;
    let home = opts.home.clone().or_else(dirs::home_dir);
    let mut paths = SettingsPaths::standard(&root, home.as_deref());
    paths.managed = Some(
        opts.managed_settings
            .clone()
            .unwrap_or_else(managed_settings_path),
    );
    paths.flag_files = opts.settings_files.clone();
    let cli = CliSettings {
        mode: opts.mode,
        add_dirs: opts
            .add_dirs
            .iter()
            .map(|d| {
                if d.is_absolute() {
                    d.clone()
                } else {
                    root.join(d)
                }
            })
            .collect(),
        ..CliSettings::default()
    };
    let loaded = load_settings(&paths, &cli, &root, home.as_deref());
    Ok(PermissionContext::from_settings(
        &loaded,
        ContextOptions {
            project_root: root.clone(),
            cwd: Some(root),
            home,
            trusted: true,
            ..ContextOptions::default()
        },
    ))
}

fn str_field<'a>(input: &'a Value, field: &str) -> Option<&'a str> {
    input.get(field).and_then(Value::as_str)
}

/// The subject and read-only flag of a call to a tool the registry does not hold, from its usual input fields.
fn fallback_subject(
    tool: &str,
    input: &Value,
    ctx: &ToolContext,
) -> Result<(PermissionSubject, bool), String> {
    let need = |field: &str| {
        str_field(input, field)
            .ok_or_else(|| format!("invalid input for {tool}: `{field}` (a string) is required"))
    };
    if !input.is_object() {
        return Err(format!(
            "invalid input for {tool}: the input must be a JSON object"
        ));
    }
    Ok(match tool {
        "Bash" => (
            PermissionSubject::Shell {
                command: need("command")?.to_string(),
            },
            false,
        ),
        "Read" => (
            PermissionSubject::ReadPath(ctx.resolve(need("file_path")?)),
            true,
        ),
        "NotebookRead" => (
            PermissionSubject::ReadPath(ctx.resolve(need("notebook_path")?)),
            true,
        ),
        "Glob" | "Grep" | "LS" => {
            if tool != "LS" {
                need("pattern")?;
            }
            let path = str_field(input, "path").unwrap_or(".");
            (PermissionSubject::ReadPath(ctx.resolve(path)), true)
        }
        "Edit" | "Write" | "MultiEdit" => (
            PermissionSubject::WritePath(ctx.resolve(need("file_path")?)),
            false,
        ),
        "NotebookEdit" => (
            PermissionSubject::WritePath(ctx.resolve(need("notebook_path")?)),
            false,
        ),
        "WebFetch" => (
            PermissionSubject::Fetch {
                url: need("url")?.to_string(),
            },
            false,
        ),
        "Agent" => (
            PermissionSubject::Agent {
                subagent_type: str_field(input, "subagent_type").map(str::to_string),
            },
            false,
        ),
        // Tools that only touch the session's own state need no permission.
        "ToolSearch"
        | "TodoWrite"
        | "TaskCreate"
        | "TaskGet"
        | "TaskUpdate"
        | "TaskList"
        | "TaskOutput"
        | "BashOutput"
        | "KillShell"
        | "EnterPlanMode"
        | "ListMcpResourcesTool" => (PermissionSubject::Tool, true),
        _ => (PermissionSubject::Tool, false),
    })
}

/// Answers one check against an already-built context.
pub fn check_in(ctx: &PermissionContext, tool: &str, input: &Value) -> CheckAnswer {
    let name = canonical_tool_name(tool);
    let tool_ctx = ToolContext {
        working_dirs: ctx.working_dirs.clone(),
        ..ToolContext::new(ctx.cwd.clone())
    };
    let registered = builtin_tools()
        .into_iter()
        .find(|t| t.name() == name || t.aliases().contains(&tool));
    let (subject, read_only, name) = match registered {
        Some(t) => {
            let prepared = match t.prepare(input) {
                Ok(p) => p,
                Err(message) => {
                    return CheckAnswer::error(format!(
                        "invalid input for {}: {message}",
                        t.name()
                    ));
                }
            };
            (
                prepared.permission_subject(&tool_ctx),
                prepared.is_read_only(),
                t.name().to_string(),
            )
        }
        None if name.starts_with("mcp__") => (PermissionSubject::Tool, false, name.to_string()),
        None if super::rule::is_known_tool(name) => {
            match fallback_subject(name, input, &tool_ctx) {
                Ok((s, r)) => (s, r, name.to_string()),
                Err(message) => return CheckAnswer::error(message),
            }
        }
        None => {
            return CheckAnswer::error(format!(
                "unknown tool `{tool}`: no built-in tool has that name (MCP tools are named mcp__<server>__<tool>)"
            ));
        }
    };
    let decision = decide(
        ctx,
        &CallView {
            tool_name: &name,
            input,
            subject: &subject,
            read_only,
        },
    );
    CheckAnswer {
        decision: decision.decision,
        reason: decision.reason,
        rule: decision.rule,
        source: decision.source,
        decided_by: decision.decided_by,
    }
}

/// `tandem permissions check TOOL --input JSON ...`: one answer (exit code 0 whatever it is).
pub fn check(opts: &CheckOptions) -> CheckAnswer {
    check_with_issues(opts).0
}

/// The answer, and the problems found in the settings and rules (the command line prints them to stderr).
pub fn check_with_issues(opts: &CheckOptions) -> (CheckAnswer, Vec<SettingsIssue>) {
    match context_for(opts) {
        Ok(ctx) => (
            check_in(&ctx, &opts.tool, &opts.input),
            (*ctx.issues).clone(),
        ),
        Err(message) => (CheckAnswer::error(message), Vec::new()),
    }
}

/// One line describing a settings problem: `file: rule: message`.
pub fn describe_issue(issue: &SettingsIssue) -> String {
    match &issue.rule {
        Some(rule) => format!("{}: {rule}: {}", issue.file, issue.message),
        None => format!("{}: {}", issue.file, issue.message),
    }
}

/// One line of `--batch` input.
#[derive(Debug, Clone, Deserialize)]
struct BatchLine {
    tool: String,
    #[serde(default)]
    input: Value,
    cwd: Option<PathBuf>,
    mode: Option<String>,
}

/// `tandem permissions check --batch`: one JSON request per input line, one answer line per request. Contexts are
/// built once per (folder, mode).
pub fn check_batch(
    input: impl BufRead,
    mut output: impl Write,
    defaults: &CheckOptions,
) -> std::io::Result<()> {
    let mut contexts: HashMap<
        (Option<PathBuf>, Option<PermissionMode>),
        Result<PermissionContext, String>,
    > = HashMap::new();
    for line in input.lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let answer = match serde_json::from_str::<BatchLine>(&line) {
            Err(e) => CheckAnswer::error(format!("invalid request line: {e}")),
            Ok(req) => {
                let mode = match req.mode.as_deref() {
                    None => Ok(defaults.mode),
                    Some(m) => PermissionMode::parse(m)
                        .map(Some)
                        .ok_or_else(|| format!("unknown mode `{m}`")),
                };
                match mode {
                    Err(message) => CheckAnswer::error(message),
                    Ok(mode) => {
                        let cwd = req.cwd.clone().or_else(|| defaults.cwd.clone());
                        let ctx = contexts.entry((cwd.clone(), mode)).or_insert_with(|| {
                            context_for(&CheckOptions {
                                cwd,
                                mode,
                                ..defaults.clone()
                            })
                        });
                        match ctx {
                            Ok(ctx) => check_in(ctx, &req.tool, &req.input),
                            Err(message) => CheckAnswer::error(message.clone()),
                        }
                    }
                }
            }
        };
        let text = serde_json::to_string(&answer).map_err(std::io::Error::other)?;
        writeln!(output, "{text}")?;
        output.flush()?;
    }
    Ok(())
}

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

/// Lists the effective rules of the folder in `opts.cwd`.
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
                    event: event.clone(),
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

//! `tandem permissions check`: builds the permission context of a folder the way a session would (every settings
//! source, the folder trusted) and answers calls against it with the built-in tools, one at a time or in batches.

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Deserialize;
use serde_json::Value;
use tandem_engine::permission::{
    CheckAnswer, CliSettings, ContextOptions, PermissionContext, SettingsIssue, SettingsPaths,
    check_call, load_settings, managed_settings_path,
};
use tandem_engine::registry::checking_tools;
use tandem_engine::tool::DynTool;
use tandem_protocol::PermissionMode;

use crate::lines::{MAX_LINE_BYTES, bounded_lines};

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

fn folder(cwd: Option<&Path>) -> Result<PathBuf, String> {
    let dir = match cwd {
        Some(d) => d.to_path_buf(),
        None => std::env::current_dir().map_err(|e| format!("no current directory: {e}"))?,
    };
    std::fs::canonicalize(&dir)
        .map_err(|e| format!("the folder {} cannot be opened: {e}", dir.display()))
}

/// What the command line says, and refuses to run, when a settings file could not be read: each file with what is
/// wrong (its deny rules could not be applied, so no answer or run would be safe). `None` when every file was read.
pub fn unreadable_settings(ctx: &PermissionContext) -> Option<String> {
    let lines: Vec<String> = ctx
        .unreadable_settings
        .iter()
        .map(|issue| format!("the settings file {} {}", issue.file, issue.message))
        .collect();
    (!lines.is_empty()).then(|| {
        format!(
            "{}; fix it (or move it away) and run again: {UNREADABLE_MARK}, so nothing is run or answered",
            lines.join("; ")
        )
    })
}

/// Words every refusal for an unreadable settings file holds.
pub const UNREADABLE_MARK: &str = "its deny rules cannot be applied";

/// The permission context `permissions check` uses: settings from the same places as the app, the folder trusted.
/// A settings file that cannot be read is an error (see [`unreadable_settings`]).
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
    let ctx = PermissionContext::from_settings(
        &loaded,
        ContextOptions {
            project_root: root.clone(),
            cwd: Some(root),
            home,
            trusted: true,
            ..ContextOptions::default()
        },
    );
    match unreadable_settings(&ctx) {
        Some(message) => Err(message),
        None => Ok(ctx),
    }
}

/// The tools a session on the context's folder offers (the folder's skills and agent types included), as the
/// engine's tool set makes them.
fn tools_for(ctx: &PermissionContext, opts: &CheckOptions) -> Vec<Arc<dyn DynTool>> {
    let home = opts.home.clone().or_else(dirs::home_dir);
    checking_tools(&ctx.project_root, home.as_deref())
}

/// Answers one check against an already-built context, with the tools a session on its folder offers.
pub fn check_in(
    ctx: &PermissionContext,
    opts: &CheckOptions,
    tool: &str,
    input: &Value,
) -> CheckAnswer {
    check_call(ctx, &tools_for(ctx, opts), tool, input)
}

/// `tandem permissions check TOOL --input JSON ...`: one answer (exit code 0 whatever it is).
pub fn check(opts: &CheckOptions) -> CheckAnswer {
    check_with_issues(opts).0
}

/// The answer, and the problems found in the settings and rules (the command line prints them to stderr).
pub fn check_with_issues(opts: &CheckOptions) -> (CheckAnswer, Vec<SettingsIssue>) {
    match context_for(opts) {
        Ok(ctx) => (
            check_in(&ctx, opts, &opts.tool, &opts.input),
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

/// `tandem permissions check --batch`: one JSON request per input line, one answer line per request. Contexts and
/// tools are built once per (folder, mode).
pub fn check_batch(
    input: impl BufRead,
    mut output: impl Write,
    defaults: &CheckOptions,
) -> std::io::Result<()> {
    type Checking = (PermissionContext, Vec<Arc<dyn DynTool>>);
    let mut contexts: HashMap<(Option<PathBuf>, Option<PermissionMode>), Result<Checking, String>> =
        HashMap::new();
    for line in bounded_lines(input, MAX_LINE_BYTES) {
        let line = line?.into_text();
        if line.as_ref().is_ok_and(|l| l.trim().is_empty()) {
            continue;
        }
        let request =
            line.and_then(|l| serde_json::from_str::<BatchLine>(&l).map_err(|e| e.to_string()));
        let answer = match request {
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
                            .map(|ctx| {
                                let tools = tools_for(&ctx, defaults);
                                (ctx, tools)
                            })
                        });
                        match ctx {
                            Ok((ctx, tools)) => check_call(ctx, tools, &req.tool, &req.input),
                            Err(message) if message.contains(UNREADABLE_MARK) => {
                                return Err(std::io::Error::other(message.clone()));
                            }
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

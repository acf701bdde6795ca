//! Tungsten: an interactive terminal the model drives (behind `USER_TYPE=ant`; docs/engine-doors.md). `start` runs a
//! command in a PTY of its own (checked as a Bash command is), `send` types keys into it and waits until the output
//! is quiet or a pattern shows, `screen` reads the screen as a terminal emulator keeps it (REPLs and full-screen
//! programs alike), `stop` kills it. A session has several; they all die with the session's tools.

mod input;
mod keys;
mod render;
pub(crate) mod terminal;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use regex::Regex;
use tandem_protocol::{RenderHints, ToolKind};

pub use input::{Action, TungstenInput};
pub use keys::SYNTAX as KEY_SYNTAX;

use crate::permission::PermissionSubject;
use crate::tool::{
    InterruptBehavior, Placement, Tool, ToolContext, ToolError, ToolOutput, erase, names,
};
use crate::tools::bash::MAX_COMMAND_BYTES;
use crate::tools::bash::cwd::inside;
use crate::tools::bash::pty::Launch;
use terminal::{Terminal, Waited};

/// The most terminals a session keeps open at once.
pub const MAX_TERMINALS: usize = 8;

/// How long `stop` waits for the program to be gone.
const STOP_WAIT: Duration = Duration::from_secs(5);

/// The Tungsten tool, with the session's terminals (killed when it is dropped).
#[derive(Debug, Default)]
pub struct TungstenTool {
    terminals: Mutex<BTreeMap<String, Arc<Terminal>>>,
    next: AtomicU64,
}

/// The tool for a session (its own terminals).
pub fn tool() -> Arc<dyn crate::tool::DynTool> {
    erase(TungstenTool::default())
}

impl TungstenTool {
    fn open(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, Arc<Terminal>>> {
        self.terminals.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The terminal `id` names, or an error listing those open.
    fn terminal(&self, input: &TungstenInput) -> Result<(String, Arc<Terminal>), ToolError> {
        let id = input.id.as_deref().unwrap_or("").trim().to_string();
        let open = self.open();
        match open.get(&id) {
            Some(t) => Ok((id, Arc::clone(t))),
            None => {
                let ids: Vec<&str> = open.keys().map(String::as_str).collect();
                let known = if ids.is_empty() {
                    "no terminal is open".to_string()
                } else {
                    format!("open terminals: {}", ids.join(", "))
                };
                Err(ToolError::to_model(format!(
                    "there is no terminal `{id}` ({known})"
                )))
            }
        }
    }

    /// The directory `start` runs in: `cwd` (relative to the project root) when it is inside the working
    /// directories, else the project root.
    fn directory(input: &TungstenInput, ctx: &ToolContext) -> Result<PathBuf, ToolError> {
        let Some(cwd) = input.cwd.as_deref().filter(|c| !c.trim().is_empty()) else {
            return Ok(ctx.cwd.clone());
        };
        let path = ctx.cwd.join(cwd);
        if !path.is_dir() {
            return Err(ToolError::to_model(format!(
                "{} is not a directory",
                path.display()
            )));
        }
        if !inside(&path, &ctx.working_dirs) {
            return Err(ToolError::to_model(format!(
                "{} is outside the project's working directories",
                path.display()
            )));
        }
        Ok(path)
    }

    async fn start(
        &self,
        input: &TungstenInput,
        ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let command = input.command().to_string();
        match ctx.sandbox.placement(&command, true) {
            Placement::Unsandboxed(_) => {}
            Placement::Sandboxed | Placement::Refused => {
                return Err(ToolError::to_model(
                    "Tungsten's terminals do not run in the sandbox, and the settings require shell commands to \
                     run in it (sandbox.allowUnsandboxedCommands is off, or sandbox.failIfUnavailable is set): \
                     use Bash instead.",
                ));
            }
        }
        if self.open().len() >= MAX_TERMINALS {
            return Err(ToolError::to_model(format!(
                "{MAX_TERMINALS} terminals are open already: stop one first"
            )));
        }
        let size = input.size().map_err(ToolError::to_model)?;
        let launch = Launch {
            program: "bash".into(),
            args: vec!["-c".into(), command.clone()],
            cwd: Self::directory(input, ctx)?,
            env: Vec::new(),
            size: Some(size),
        };
        let terminal = Arc::new(Terminal::start(&launch, &command).map_err(ToolError::to_model)?);
        let id = format!("t{}", self.next.fetch_add(1, Ordering::Relaxed) + 1);
        self.open().insert(id.clone(), Arc::clone(&terminal));
        let started = format!(
            "Started terminal {id} (pid {}). Type into it with action `send` and id `{id}`; stop it with `stop`.",
            terminal.pid
        );
        self.settle(&id, &terminal, input, ctx, Some(started)).await
    }

    async fn send(
        &self,
        input: &TungstenInput,
        ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let (id, terminal) = self.terminal(input)?;
        let keys = input.keys.as_deref().unwrap_or("");
        let bytes =
            keys::encode(keys, terminal.application_cursor()).map_err(ToolError::to_model)?;
        terminal
            .type_bytes(&bytes)
            .map_err(|e| ToolError::to_model(format!("terminal {id}: {e}")))?;
        self.settle(&id, &terminal, input, ctx, None).await
    }

    /// Waits as `input` asks (for `wait_for`, or until the output is quiet) and returns the screen after `lead`.
    async fn settle(
        &self,
        id: &str,
        terminal: &Terminal,
        input: &TungstenInput,
        ctx: &ToolContext,
        lead: Option<String>,
    ) -> Result<ToolOutput, ToolError> {
        let pattern = pattern(input).map_err(ToolError::to_model)?;
        let limit = Duration::from_millis(input.timeout_ms());
        let waited = terminal
            .wait(pattern.as_ref(), limit, &ctx.cancel)
            .await
            .ok_or(ToolError::Cancelled)?;
        let note = match (waited, &pattern) {
            (Waited::TimedOut, Some(p)) => Some(format!(
                "`{}` did not show on the screen within {} ms.",
                p.as_str(),
                limit.as_millis()
            )),
            (Waited::TimedOut, None) => Some(format!(
                "The output was still changing after {} ms.",
                limit.as_millis()
            )),
            _ => None,
        };
        let note = [lead, note].into_iter().flatten().collect::<Vec<_>>();
        let note = (!note.is_empty()).then(|| note.join("\n"));
        Ok(ToolOutput::text(render::render(
            id,
            &terminal.command,
            &terminal.snapshot(),
            note.as_deref(),
        )))
    }

    async fn screen(
        &self,
        input: &TungstenInput,
        ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let (id, terminal) = self.terminal(input)?;
        if input.wait_for.is_none() {
            let snapshot = terminal.snapshot();
            return Ok(ToolOutput::text(render::render(
                &id,
                &terminal.command,
                &snapshot,
                None,
            )));
        }
        self.settle(&id, &terminal, input, ctx, None).await
    }

    async fn stop(&self, input: &TungstenInput) -> Result<ToolOutput, ToolError> {
        let (id, terminal) = self.terminal(input)?;
        self.open().remove(&id);
        let ended = match terminal.kill(STOP_WAIT).await {
            Some(exit) => format!(
                "Stopped terminal {id}: the program has exited ({}).",
                terminal::describe_exit(&exit)
            ),
            None => format!(
                "Stopped terminal {id}: its process group was killed, but the program had not exited after {}s.",
                STOP_WAIT.as_secs()
            ),
        };
        let snapshot = terminal.snapshot();
        Ok(ToolOutput::text(render::render(
            &id,
            &terminal.command,
            &snapshot,
            Some(&ended),
        )))
    }
}

/// Titles show this many characters of a command or of keys.
const TITLE_CHARS: usize = 80;

/// `text` on one line, cut at [`TITLE_CHARS`].
fn short(text: &str) -> String {
    let line = text.replace(['\n', '\r'], " ");
    if line.chars().count() <= TITLE_CHARS {
        return line;
    }
    let cut: String = line.chars().take(TITLE_CHARS).collect();
    format!("{cut} …")
}

/// The `wait_for` pattern, compiled.
fn pattern(input: &TungstenInput) -> Result<Option<Regex>, String> {
    input
        .wait_for
        .as_deref()
        .filter(|p| !p.is_empty())
        .map(|p| {
            Regex::new(p).map_err(|e| format!("wait_for is not a valid regular expression: {e}"))
        })
        .transpose()
}

impl Tool for TungstenTool {
    type Input = TungstenInput;

    fn name(&self) -> &'static str {
        names::TUNGSTEN
    }

    fn description(&self) -> String {
        format!(
            "Drives interactive terminals: REPLs (python3, node, psql), full-screen programs (vi, top, less) and \
             anything else that needs a person at a keyboard. Bash is better for commands that just run and print.\n\
             - `start` (`command`, optional `cwd` inside the project, `rows`/`cols`, default 24x80) runs the command \
             with `bash -c` in a new terminal and returns its id (t1, t2...) and screen. At most {MAX_TERMINALS} \
             terminals are open at once.\n\
             - `send` (`id`, `keys`) types the keys, then waits until the output has been quiet for a moment (or, \
             with `wait_for`, until that regular expression matches the screen's text), at most `timeout_ms` \
             (default {} ms, at most {} ms), and returns the screen. Wait for a program's prompt (`wait_for`) \
             before typing more: keys typed ahead may be lost when the program switches the terminal's mode.\n\
             - `screen` (`id`, optional `wait_for`) returns the screen now: its rows numbered from 1, the cursor's \
             row and column, and whether the program still runs.\n\
             - `stop` (`id`) kills the program and everything it started. Terminals still open when the session \
             ends are killed.\n\
             {}\n\
             Starting a terminal is approved like a Bash command (Bash rules apply to the command); the keys sent \
             to a terminal are commands to the program reading them, so `send` asks unless the session allows \
             Tungsten. Terminals do not run in the sandbox.",
            input::DEFAULT_TIMEOUT_MS,
            input::MAX_TIMEOUT_MS,
            keys::SYNTAX
        )
    }

    fn is_read_only(&self, input: &TungstenInput) -> bool {
        input.action == Action::Screen
    }

    fn is_concurrency_safe(&self, input: &TungstenInput) -> bool {
        input.action == Action::Screen
    }

    fn interrupt_behavior(&self) -> InterruptBehavior {
        InterruptBehavior::Cancel
    }

    fn render_hints(&self, input: &TungstenInput, _ctx: &ToolContext) -> RenderHints {
        let id = input.id.as_deref().unwrap_or("?");
        let title = match input.action {
            Action::Start => format!("Terminal: $ {}", short(input.command())),
            Action::Send => format!(
                "Terminal {id} ← {}",
                short(input.keys.as_deref().unwrap_or(""))
            ),
            Action::Screen => format!("Terminal {id}: screen"),
            Action::Stop => format!("Terminal {id}: stop"),
        };
        RenderHints {
            kind: ToolKind::Shell,
            title,
            collapsible: input.action == Action::Screen,
        }
    }

    fn permission_subject(&self, input: &TungstenInput, _ctx: &ToolContext) -> PermissionSubject {
        match input.action {
            // The command is checked as a Bash command is: `Bash(...)` rules and the shell analysis apply.
            Action::Start => PermissionSubject::Shell {
                command: input.command().to_string(),
            },
            // Keys typed into a shell or a REPL are commands nobody can analyse: whole-tool rules and the mode
            // decide.
            Action::Send => PermissionSubject::Tool,
            Action::Screen | Action::Stop => PermissionSubject::SessionOwned,
        }
    }

    async fn validate_input(
        &self,
        input: &TungstenInput,
        _ctx: &ToolContext,
    ) -> Result<(), String> {
        let needs = |field: &str, value: Option<&str>| match value {
            Some(v) if !v.trim().is_empty() => Ok(()),
            _ => Err(format!("`{field}` is required for this action")),
        };
        match input.action {
            Action::Start => {
                needs("command", input.command.as_deref())?;
                if input.command().len() > MAX_COMMAND_BYTES {
                    return Err(format!(
                        "the command may be at most {} KiB long",
                        MAX_COMMAND_BYTES / 1024
                    ));
                }
                input.size()?;
            }
            Action::Send => {
                needs("id", input.id.as_deref())?;
                if input.keys.as_deref().is_none_or(str::is_empty) {
                    return Err("`keys` is required for send".into());
                }
                keys::encode(input.keys.as_deref().unwrap_or(""), false)?;
            }
            Action::Screen | Action::Stop => needs("id", input.id.as_deref())?,
        }
        if input.timeout_ms.is_some_and(|t| t > input::MAX_TIMEOUT_MS) {
            return Err(format!("timeout_ms is at most {}", input::MAX_TIMEOUT_MS));
        }
        pattern(input)?;
        Ok(())
    }

    async fn call(
        &self,
        input: &TungstenInput,
        ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        match input.action {
            Action::Start => self.start(input, ctx).await,
            Action::Send => self.send(input, ctx).await,
            Action::Screen => self.screen(input, ctx).await,
            Action::Stop => self.stop(input).await,
        }
    }
}

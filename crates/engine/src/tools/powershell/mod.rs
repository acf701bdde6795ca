//! PowerShell: runs a PowerShell command with `pwsh` where it is installed (on other systems the tool is not
//! offered, and the tool list says why). Commands run as `pwsh -NoLogo -NoProfile -NonInteractive -Command …` in the
//! working directory, in their own process group (a timeout, an interrupt or the end of the session kills them with
//! everything they started), outside the sandbox (where the settings require the sandbox, the call is refused).
//! The permission engine cannot analyse PowerShell, so a call is judged as the bare tool: it asks unless a
//! `PowerShell` rule or the mode decides.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use schemars::JsonSchema;
use serde::Deserialize;
use tandem_protocol::{RenderHints, ToolKind};
use tokio::io::AsyncReadExt;

use crate::process_group::GroupGuard;
use crate::tool::{PermissionSubject, Placement, Tool, ToolContext, ToolError, ToolOutput, names};
use crate::tools::bash::{MAX_OUTPUT_CHARS, clean_terminal_output};

/// How long a command may run when the call does not say (2 minutes).
const DEFAULT_TIMEOUT_MS: u64 = 120_000;
/// The longest a call may ask for (10 minutes).
const MAX_TIMEOUT_MS: u64 = 600_000;

/// The `pwsh` the PowerShell tool runs, from the folders of `path` (a `PATH` value), or `None` when none of them
/// holds one.
pub fn find_pwsh(path: Option<&std::ffi::OsStr>) -> Option<PathBuf> {
    crate::fsutil::find_program("pwsh", path)
}

/// Runs one PowerShell command.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PowerShellInput {
    /// The PowerShell command or script to run.
    pub command: String,
    /// At most this many milliseconds (default 120000, at most 600000).
    #[serde(default)]
    pub timeout: Option<u64>,
    /// What the command does, in a few words, for the person.
    #[serde(default)]
    pub description: Option<String>,
}

/// The PowerShell tool, running the `pwsh` at `program`.
#[derive(Debug, Clone)]
pub struct PowerShellTool {
    program: PathBuf,
}

impl PowerShellTool {
    pub fn new(program: PathBuf) -> Self {
        Self { program }
    }
}

impl Tool for PowerShellTool {
    type Input = PowerShellInput;

    fn name(&self) -> &'static str {
        names::POWERSHELL
    }

    fn description(&self) -> String {
        format!(
            "Run a PowerShell command with pwsh (-NoProfile, non-interactive) in the working directory; the result \
             is its output (stdout and stderr) and exit code. Use Bash for ordinary shell work; use this for \
             PowerShell cmdlets and scripts. Commands time out after {DEFAULT_TIMEOUT_MS} ms unless `timeout` says \
             otherwise (at most {MAX_TIMEOUT_MS}); output over {MAX_OUTPUT_CHARS} characters is cut in the middle."
        )
    }

    fn render_hints(&self, input: &PowerShellInput, _ctx: &ToolContext) -> RenderHints {
        let title = input
            .description
            .as_deref()
            .map(str::trim)
            .filter(|d| !d.is_empty())
            .map(str::to_string)
            .unwrap_or_else(|| input.command.trim().to_string());
        RenderHints {
            kind: ToolKind::Shell,
            title,
            collapsible: false,
        }
    }

    fn permission_subject(
        &self,
        _input: &PowerShellInput,
        _ctx: &ToolContext,
    ) -> PermissionSubject {
        PermissionSubject::Tool
    }

    async fn validate_input(
        &self,
        input: &PowerShellInput,
        _ctx: &ToolContext,
    ) -> Result<(), String> {
        if input.command.trim().is_empty() {
            return Err("command must not be empty".into());
        }
        if input.timeout.is_some_and(|t| t == 0 || t > MAX_TIMEOUT_MS) {
            return Err(format!("timeout must be from 1 to {MAX_TIMEOUT_MS} ms"));
        }
        Ok(())
    }

    async fn call(
        &self,
        input: &PowerShellInput,
        ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        match ctx.sandbox.placement(&input.command, true) {
            Placement::Unsandboxed(_) => {}
            Placement::Sandboxed | Placement::Refused => {
                return Err(ToolError::to_model(
                    "PowerShell commands do not run in the sandbox, and the settings require shell commands to run \
                     in it: use Bash instead.",
                ));
            }
        }
        let mut command = tokio::process::Command::new(&self.program);
        command
            .args(["-NoLogo", "-NoProfile", "-NonInteractive", "-Command"])
            .arg(&input.command)
            .current_dir(&ctx.cwd)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .kill_on_drop(true);
        let mut child = command.spawn().map_err(|e| {
            ToolError::to_model(format!("could not start {}: {e}", self.program.display()))
        })?;
        let mut guard = child.id().map(GroupGuard::new);
        let (Some(mut stdout), Some(mut stderr)) = (child.stdout.take(), child.stderr.take())
        else {
            return Err(ToolError::to_model("pwsh's output could not be read"));
        };
        let read_all = async {
            let (mut out, mut err) = (Vec::new(), Vec::new());
            let _ = tokio::join!(stdout.read_to_end(&mut out), stderr.read_to_end(&mut err));
            let status = child.wait().await;
            (out, err, status)
        };
        let limit = Duration::from_millis(input.timeout.unwrap_or(DEFAULT_TIMEOUT_MS));
        let (out, err, status) = tokio::select! {
            done = read_all => done,
            _ = tokio::time::sleep(limit) => {
                if let Some(g) = guard.as_mut() { g.kill(); }
                return Err(ToolError::to_model(format!(
                    "the command was still running after {} ms and was stopped", limit.as_millis()
                )));
            }
            _ = ctx.cancel.cancelled() => {
                if let Some(g) = guard.as_mut() { g.kill(); }
                return Err(ToolError::Cancelled);
            }
        };
        if let Some(g) = guard.as_mut() {
            g.kill();
        }
        let status =
            status.map_err(|e| ToolError::to_model(format!("pwsh did not end cleanly: {e}")))?;
        let mut text = clean_terminal_output(&out);
        let err = clean_terminal_output(&err);
        if !err.is_empty() {
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(&err);
        }
        let text = crate::text::cut_middle(&text, MAX_OUTPUT_CHARS, "output");
        match status.code() {
            Some(0) => Ok(ToolOutput::text(if text.is_empty() {
                "(no output)".to_string()
            } else {
                text
            })),
            Some(code) => Err(ToolError::to_model(
                format!("{text}\nExit code {code}").trim_start().to_string(),
            )),
            None => Err(ToolError::to_model(
                format!("{text}\npwsh was killed by a signal")
                    .trim_start()
                    .to_string(),
            )),
        }
    }
}

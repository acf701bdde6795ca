//! The Bash tool: a command run with `bash -c` in a real PTY in the session's shell directory, its output streamed
//! as progress and returned cleaned; a timeout or an interrupt kills its whole process group; background runs with
//! TaskOutput and TaskStop, and running commands moved to the background (by the person, at their timeout where a
//! person follows the session, after the assistant mode's budget); read-only detection from the shell analysis; an
//! optional bubblewrap sandbox (run by [`crate::sandbox`]).

mod background;
mod classify;
pub(crate) mod cwd;
mod error;
mod input;
mod output;
pub(crate) mod pty;
mod run;
mod script;
mod sed_preview;
mod semantics;
mod session;
mod task_output;
mod task_stop;

use std::sync::Arc;
use std::time::Duration;

use tandem_protocol::{BackgroundReason, RenderHints, ToolDetail, ToolKind};

pub use background::{Adoption, BackgroundTask, TaskState};
pub use classify::{is_destructive, is_read_only};
pub use error::BashError;
pub use input::{BashInput, DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS};
pub use output::{MAX_OUTPUT_CHARS, clean as clean_terminal_output};
pub use pty::Exit;
pub use semantics::{ExitReading, read_exit};
pub use session::{ASSISTANT_BLOCKING_BUDGET, ShellSession};
pub use task_output::{TaskOutputInput, TaskOutputTool};
pub use task_stop::{TaskStopInput, TaskStopTool};

use crate::permission::PermissionSubject;
use crate::sandbox::{BridgeProgram, NetworkBridge, Proxy, Sandbox, violations};
use crate::tool::erase;
use crate::tool::names;
use crate::tool::{
    DynTool, InterruptBehavior, Placement, SandboxConfig, Tool, ToolContext, ToolError, ToolOutput,
    Unsandboxed,
};
use crate::tools::responses::{self, BashResponse};
use pty::Launch;
use run::{End, Handoff};

/// The three shell tools sharing one session's shell state.
pub fn tools(shell: Arc<ShellSession>) -> Vec<Arc<dyn DynTool>> {
    vec![
        erase(BashTool::new(Arc::clone(&shell))),
        erase(TaskOutputTool::new(Arc::clone(&shell))),
        erase(TaskStopTool::new(shell)),
    ]
}

/// The Bash tool.
#[derive(Debug)]
pub struct BashTool {
    shell: Arc<ShellSession>,
    /// The sub-agent using this tool (its background shells end with it); `None` for the session's own agent.
    owner: Option<String>,
}

impl BashTool {
    /// A Bash tool on `shell`'s state, for the session's own agent.
    pub fn new(shell: Arc<ShellSession>) -> Self {
        Self { shell, owner: None }
    }

    /// A Bash tool on `shell`'s state for the sub-agent `agent_id`: the background shells it starts are its own
    /// (stop them with [`ShellSession::stop_owned_by`] when it ends), and the assistant mode's budget does not
    /// apply to it.
    pub fn for_agent(shell: Arc<ShellSession>, agent_id: &str) -> Self {
        Self {
            shell,
            owner: Some(agent_id.to_string()),
        }
    }

    /// What may move a foreground command to the background by itself, beside the person's `request`.
    fn handoff(&self, command: &str, request: tokio_util::sync::CancellationToken) -> Handoff {
        let automatic = !starts_with_sleep(command);
        Handoff {
            request,
            budget: self
                .shell
                .blocking_budget()
                .filter(|_| automatic && self.owner.is_none()),
            at_timeout: automatic && self.shell.backgrounds_at_timeout(),
        }
    }

    /// The sandbox settings this call runs under: the settings' unless the shell state forces a choice.
    fn sandbox_config(&self, ctx: &ToolContext) -> SandboxConfig {
        match &self.shell.sandbox {
            None => (*ctx.sandbox).clone(),
            Some(None) => SandboxConfig::default(),
            Some(Some(sandbox)) => SandboxConfig {
                enabled: true,
                bwrap: Some(sandbox.bwrap().to_path_buf()),
                ..(*ctx.sandbox).clone()
            },
        }
    }

    /// What runs `script` in `cwd`, sandboxed or not, with the proxy of a sandbox that has network.
    fn launch(
        &self,
        input: &BashInput,
        script: &str,
        cwd: &std::path::Path,
        ctx: &ToolContext,
    ) -> Result<Started, ToolError> {
        let config = self.sandbox_config(ctx);
        let disable = input.dangerously_disable_sandbox.unwrap_or(false);
        let mut started = Started::default();
        let (program, args) = match config.placement(&input.command, disable) {
            Placement::Refused => {
                return Err(ToolError::to_model(
                    "The sandbox is required (sandbox.failIfUnavailable is set) but bubblewrap (bwrap) is not \
                     installed, so the command was not run. Install bubblewrap, or turn sandbox.failIfUnavailable \
                     off.",
                ));
            }
            Placement::Sandboxed => {
                let bwrap = config.bwrap.clone().unwrap_or_default();
                let mut writable = ctx.working_dirs.clone();
                writable.push(self.shell.dir().to_path_buf());
                writable.extend(config.allow_write.iter().cloned());
                let bridge = if config.allowed_domains.is_empty() {
                    None
                } else {
                    let program = BridgeProgram::locate().ok_or_else(|| {
                        ToolError::to_model("the sandbox's network bridge program cannot be found")
                    })?;
                    let socket = self
                        .shell
                        .dir()
                        .join(format!("proxy-{}.sock", uuid::Uuid::new_v4().simple()));
                    let proxy = Proxy::start(socket.clone(), config.allowed_domains.clone())
                        .map_err(|e| {
                            ToolError::to_model(format!("the sandbox's proxy cannot start: {e}"))
                        })?;
                    started.proxy = Some(proxy);
                    Some(NetworkBridge { socket, program })
                };
                started.writable = Some(writable.clone());
                Sandbox::at(bwrap).command(script, cwd, &writable, bridge.as_ref())
            }
            placement => {
                if placement == Placement::Unsandboxed(Unsandboxed::Unavailable)
                    && self.shell.first_unavailable_warning()
                {
                    let warning = "Warning: the sandbox is enabled but bubblewrap (bwrap) is not installed, so \
                                   commands run without it. Install bubblewrap, or set sandbox.failIfUnavailable \
                                   to refuse to run them.";
                    ctx.progress.report(format!("{warning}\r\n"));
                    started.warning = Some(warning.to_string());
                }
                (
                    "bash".to_string(),
                    vec!["-c".to_string(), script.to_string()],
                )
            }
        };
        started.launch = Launch {
            program,
            args,
            cwd: cwd.to_path_buf(),
            env: vec![
                ("PAGER".into(), "cat".into()),
                ("GIT_PAGER".into(), "cat".into()),
                ("GIT_TERMINAL_PROMPT".into(), "0".into()),
            ],
            size: None,
        };
        Ok(started)
    }

    /// Reports what the sandbox refused a finished command (from its output and its proxy) as events, and returns
    /// the note for the model (empty when nothing was refused).
    fn report_violations(
        &self,
        started: &Started,
        output: &str,
        cwd: &std::path::Path,
        ctx: &ToolContext,
    ) -> String {
        let Some(writable) = &started.writable else {
            return String::new();
        };
        let writes = violations::refused_writes(output, cwd, writable);
        let hosts = started
            .proxy
            .as_ref()
            .map(Proxy::refused)
            .unwrap_or_default();
        let found = violations::collect(writes, hosts);
        if found.is_empty() {
            return String::new();
        }
        for v in &found {
            ctx.violations.report(v.clone());
        }
        violations::note(&found)
    }

    /// Starts the command as a background task and says how to follow it.
    fn start_background(
        &self,
        input: &BashInput,
        ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let cwd = self.current_cwd(ctx);
        // The sandbox binds the tool's folder, which must exist.
        std::fs::create_dir_all(self.shell.dir()).map_err(|e| {
            ToolError::to_model(format!("cannot create {}: {e}", self.shell.dir().display()))
        })?;
        let script = script::wrap(&input.command, None);
        let started = self.launch(input, &script, &cwd, ctx)?;
        let process =
            pty::spawn(&started.launch).map_err(|e| ToolError::to_model(e.to_string()))?;
        let task = self.adopt(
            input,
            ctx,
            (BackgroundReason::Requested, &[], None),
            process,
            started.proxy,
        )?;
        let mut text = format!(
            "Command running in the background with ID: {}. Read its output with TaskOutput and stop it with \
             TaskStop.",
            task.id
        );
        if let Some(warning) = started.warning {
            text = format!("{warning}\n{text}");
        }
        let response = BashResponse {
            background_task_id: Some(task.id.clone()),
            ..BashResponse::default()
        };
        Ok(ToolOutput::text(text)
            .with_detail(task.detail())
            .with_structured(&response))
    }

    /// Makes a running `process` of this call a background task: why it runs there, the output it printed before
    /// (already given to the model) and a file it leaves that nobody reads; its sandbox's proxy stays with the
    /// session.
    fn adopt(
        &self,
        input: &BashInput,
        ctx: &ToolContext,
        (reason, earlier, leftover): (BackgroundReason, &[u8], Option<&std::path::Path>),
        process: pty::PtyProcess,
        proxy: Option<Proxy>,
    ) -> Result<Arc<BackgroundTask>, ToolError> {
        let task = self
            .shell
            .tasks
            .adopt(
                Adoption {
                    command: &input.command,
                    description: input.description.as_deref(),
                    tool_use_id: &ctx.tool_use_id,
                    reason,
                    owner: self.owner.as_deref(),
                    earlier,
                    leftover,
                },
                process,
            )
            .map_err(|e| ToolError::to_model(e.to_string()))?;
        if let Some(proxy) = proxy {
            self.shell.keep_proxy(proxy);
        }
        Ok(task)
    }

    /// The directory the next command starts in; the project root when the remembered one is gone.
    fn current_cwd(&self, ctx: &ToolContext) -> std::path::PathBuf {
        let cwd = self.shell.cwd_or(&ctx.cwd);
        if cwd.is_dir() { cwd } else { ctx.cwd.clone() }
    }

    async fn run_foreground(
        &self,
        input: &BashInput,
        ctx: &ToolContext,
    ) -> Result<ToolOutput, ToolError> {
        let to_model = |e: BashError| ToolError::to_model(e.to_string());
        let cwd = self.current_cwd(ctx);
        std::fs::create_dir_all(self.shell.dir()).map_err(|e| to_model(e.into()))?;
        let cwd_file = tempfile::Builder::new()
            .prefix("cwd-")
            .tempfile_in(self.shell.dir())
            .map_err(|e| to_model(e.into()))?;
        let script = script::wrap(&input.command, Some(cwd_file.path()));
        let started = self.launch(input, &script, &cwd, ctx)?;
        let process = pty::spawn(&started.launch).map_err(to_model)?;
        let limit = Duration::from_millis(input.timeout_ms());
        let registered = self.shell.register_foreground(&ctx.tool_use_id);
        let handoff = self.handoff(&input.command, registered.token.clone());
        let mut finished =
            run::run_to_end(process, limit, &ctx.cancel, &ctx.progress, &handoff).await;
        drop(registered);
        if let (End::Backgrounded(reason), Some(process)) = (&finished.end, finished.process.take())
        {
            let earlier = finished.output.raw();
            let task = self.adopt(
                input,
                ctx,
                (*reason, &earlier, Some(cwd_file.path())),
                process,
                started.proxy,
            )?;
            let so_far = finished.output.for_model();
            let budget = handoff.budget.unwrap_or(ASSISTANT_BLOCKING_BUDGET);
            let mut text = moved_to_background(*reason, limit, budget, &task.id);
            if !so_far.is_empty() {
                text = format!("{text}\nOutput so far:\n{so_far}");
            }
            let response = BashResponse {
                stdout: so_far,
                background_task_id: Some(task.id.clone()),
                ..BashResponse::default()
            };
            return Ok(ToolOutput::text(text)
                .with_detail(task.detail())
                .with_structured(&response));
        }

        let root = ctx.working_dirs.first().unwrap_or(&ctx.cwd);
        let (next, note) = cwd::settle(
            cwd::read_reported(cwd_file.path()),
            &cwd,
            &ctx.working_dirs,
            root,
        );
        self.shell.set_cwd(&ctx.cwd, next.clone());

        let mut text = finished.output.for_model();
        let refused = self.report_violations(&started, &text, &cwd, ctx);
        for extra in [
            note.as_deref(),
            Some(refused.as_str()),
            started.warning.as_deref(),
        ]
        .into_iter()
        .flatten()
        .filter(|n| !n.is_empty())
        {
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(extra);
        }
        let detail = |code: Option<u32>| ToolDetail::Shell {
            exit_code: code,
            cwd: next.display().to_string(),
            cwd_reset: note.is_some(),
        };
        match finished.end {
            End::Cancelled | End::Backgrounded(_) => Err(ToolError::Cancelled),
            End::TimedOut => Err(ToolError::to_model(format!(
                "Command timed out after {}; it and every process it started were killed.\n{text}",
                human_ms(limit.as_millis() as u64)
            ))),
            End::Exited(Exit::Code(0)) => {
                let response = BashResponse {
                    stdout: text.clone(),
                    ..BashResponse::default()
                };
                let shown = if text.is_empty() {
                    "(no output)".to_string()
                } else {
                    text
                };
                Ok(ToolOutput::text(shown)
                    .with_detail(detail(Some(0)))
                    .with_structured(&response))
            }
            End::Exited(Exit::Code(code)) => match read_exit(&input.command, code) {
                ExitReading::Answer(meaning) => {
                    // Not a failure: the model reads the answer, and the calls beside this one go on.
                    let note = format!("(exit code {code}: {meaning})");
                    let response = BashResponse {
                        stdout: text.clone(),
                        return_code_interpretation: Some(meaning.to_string()),
                        ..BashResponse::default()
                    };
                    let shown = if text.is_empty() {
                        note
                    } else {
                        format!("{text}\n{note}")
                    };
                    Ok(ToolOutput::text(shown)
                        .with_detail(detail(Some(code)))
                        .with_structured(&response))
                }
                ExitReading::Success | ExitReading::Failure => {
                    Err(ToolError::to_model(format!("Exit code {code}\n{text}")))
                }
            },
            End::Exited(Exit::Signal(signal)) => Err(ToolError::to_model(format!(
                "The command was ended by signal {signal}\n{text}"
            ))),
            End::Exited(Exit::Unknown(why)) => Err(ToolError::to_model(format!(
                "The command's exit status is unknown ({why})\n{text}"
            ))),
        }
    }
}

/// A command ready to start, with what its sandbox needs afterwards.
#[derive(Default)]
struct Started {
    launch: Launch,
    /// The proxy of a sandbox with network (stops when dropped).
    proxy: Option<Proxy>,
    /// The folders a sandboxed command may write (`None`: it runs outside the sandbox).
    writable: Option<Vec<std::path::PathBuf>>,
    /// The warning that the sandbox cannot run, the first time.
    warning: Option<String>,
}

/// What the model is told when its command moved to the background while running.
fn moved_to_background(
    reason: BackgroundReason,
    limit: Duration,
    budget: Duration,
    id: &str,
) -> String {
    let why = match reason {
        BackgroundReason::ByPerson => "The user moved the command to the background".to_string(),
        BackgroundReason::Timeout => format!(
            "The command did not finish within its {} timeout and was moved to the background",
            human_ms(limit.as_millis() as u64)
        ),
        BackgroundReason::Budget => format!(
            "The command ran longer than {}, the most a command may hold the conversation in assistant mode, and \
             was moved to the background (use run_in_background for long commands)",
            human_ms(budget.as_millis() as u64)
        ),
        BackgroundReason::Requested => "The command runs in the background".to_string(),
    };
    format!(
        "{why}, where it is still running with ID: {id}. Read its further output with TaskOutput and stop it with \
         TaskStop."
    )
}

/// Whether the command starts with `sleep`: a wait that is the point of the command never moves to the
/// background by itself.
fn starts_with_sleep(command: &str) -> bool {
    crate::shell::analyse(command)
        .parts
        .first()
        .and_then(|p| p.program())
        .is_some_and(|p| crate::shell::base_name(p) == "sleep")
}

/// Commands up to this long (on one line) are the call's title; longer ones give way to their description.
const TITLE_CHARS: usize = 80;

/// `1500` → `1.5s`, `120000` → `120s`.
fn human_ms(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        format!("{}s", ms / 1000)
    } else {
        format!("{:.1}s", ms as f64 / 1000.0)
    }
}

impl Tool for BashTool {
    type Input = BashInput;

    /// One of the core tools whose schema lies in the strict subset: the model's input always fits it.
    fn strict(&self) -> bool {
        true
    }

    fn output_schema(&self) -> Option<serde_json::Value> {
        responses::schema::<BashResponse>()
    }

    fn name(&self) -> &'static str {
        names::BASH
    }

    fn description(&self) -> String {
        format!(
            "Runs a bash command (`bash -c`) in a terminal in the project, and returns its output (standard output \
             and error together, colours removed) and, when it fails, its exit code. A code that answers rather than \
             fails (grep or rg finding nothing, diff or cmp finding differences, test false, find meeting unreadable \
             entries: code 1 of the last command) is noted on a successful result.\n\
             - The working directory persists between calls: a `cd` stays in effect for the next command, as long \
             as it stays inside the project's working directories (otherwise it is reset to the project root). \
             Prefer absolute paths over `cd`.\n\
             - Standard input is empty: commands cannot prompt. Pagers are disabled.\n\
             - The default timeout is {}s, the longest {}s (`timeout`, in milliseconds). A command that times out \
             is killed with every process it started — except where the user follows the session: there it moves \
             to the background and keeps running (the result says so and gives its task ID). The user may also \
             move a running command to the background.\n\
             - Output longer than {MAX_OUTPUT_CHARS} characters is cut in the middle.\n\
             - Processes a command leaves running in the background are stopped when it ends: to run a server or \
             a watcher, set `run_in_background` and follow it with TaskOutput; stop it with TaskStop.\n\
             - Use the dedicated tools to read, search and edit files when they exist, rather than cat, grep or \
             sed.\n\
             - When the user's settings sandbox commands (bubblewrap: only the working directories writable, network \
             only to allowed hosts through a proxy), a command the sandbox refuses says so in its result. \
             `dangerouslyDisableSandbox: true` asks to run outside it: such a call is never approved by the sandbox, \
             only by the usual permission rules or the user, and the settings may refuse it; use it only when the \
             sandbox is what stops the command.",
            DEFAULT_TIMEOUT_MS / 1000,
            MAX_TIMEOUT_MS / 1000
        )
    }

    fn is_concurrency_safe(&self, input: &BashInput) -> bool {
        !input.background() && is_read_only(&input.command)
    }

    fn is_read_only(&self, input: &BashInput) -> bool {
        is_read_only(&input.command)
    }

    fn is_destructive(&self, input: &BashInput) -> bool {
        is_destructive(&input.command)
    }

    fn interrupt_behavior(&self) -> InterruptBehavior {
        InterruptBehavior::Cancel
    }

    fn aborts_siblings_on_error(&self) -> bool {
        true
    }

    fn render_hints(&self, input: &BashInput, _ctx: &ToolContext) -> RenderHints {
        let command = input.command.trim();
        let short = !command.contains('\n') && command.chars().count() <= TITLE_CHARS;
        let title = match input.description.as_deref().map(str::trim) {
            Some(d) if !short && !d.is_empty() => d.to_string(),
            _ if short => format!("$ {command}"),
            _ => {
                let first: String = command
                    .lines()
                    .next()
                    .unwrap_or("")
                    .chars()
                    .take(TITLE_CHARS)
                    .collect();
                format!("$ {first} …")
            }
        };
        RenderHints {
            kind: ToolKind::Shell,
            title,
            collapsible: is_read_only(&input.command),
        }
    }

    /// The command and what changes where it runs; its description and timeout do not change the judgement.
    fn classifier_input(&self, input: &BashInput) -> Option<serde_json::Value> {
        let mut shown = serde_json::json!({"command": crate::permission::cut(&input.command)});
        if input.background() {
            shown["run_in_background"] = true.into();
        }
        if input.dangerously_disable_sandbox == Some(true) {
            shown["dangerouslyDisableSandbox"] = true.into();
        }
        Some(shown)
    }

    fn approval_warnings(&self, input: &BashInput, ctx: &ToolContext) -> Vec<String> {
        crate::shell::destructive_warnings(&input.command, &self.current_cwd(ctx))
    }

    fn approval_previews(
        &self,
        input: &BashInput,
        ctx: &ToolContext,
    ) -> Vec<tandem_protocol::FileDiff> {
        sed_preview::previews(&input.command, &self.current_cwd(ctx))
    }

    fn permission_subject(&self, input: &BashInput, _ctx: &ToolContext) -> PermissionSubject {
        PermissionSubject::Shell {
            command: input.command.clone(),
        }
    }

    async fn validate_input(&self, input: &BashInput, _ctx: &ToolContext) -> Result<(), String> {
        if input.command.trim().is_empty() {
            return Err("command is empty".into());
        }
        if input.command.len() > MAX_COMMAND_BYTES {
            return Err(format!(
                "The command is {} KiB long; a command may be at most {} KiB (the system's limit for one \
                 argument). Write the script to a file and run the file instead.",
                input.command.len() / 1024,
                MAX_COMMAND_BYTES / 1024
            ));
        }
        if input.timeout.is_some_and(|t| t > MAX_TIMEOUT_MS) {
            return Err(format!("timeout is at most {MAX_TIMEOUT_MS} ms"));
        }
        Ok(())
    }

    async fn call(&self, input: &BashInput, ctx: &ToolContext) -> Result<ToolOutput, ToolError> {
        if input.background() {
            self.start_background(input, ctx)
        } else {
            self.run_foreground(input, ctx).await
        }
    }
}

/// The longest command that runs: the script is one argument of `bash -c`, and Linux refuses an argument over
/// 128 KiB; the rest is left for the wrapper around the command.
pub const MAX_COMMAND_BYTES: usize = 120 * 1024;

/// How the transcript draws a call about a background task.
fn task_hints(title: String, collapsible: bool) -> RenderHints {
    RenderHints {
        kind: ToolKind::Shell,
        title,
        collapsible,
    }
}

//! The client's terminals, served to the hosted agent: `terminal/create` runs the command through Tandem's Bash tool
//! (the permission check, PreToolUse hooks, the shell sandbox when it is on, the process group), shown in the
//! session as a Bash call; its output is gathered from the call's progress as it runs, `terminal/output` and
//! `terminal/wait_for_exit` read it, `terminal/kill` stops the command and `terminal/release` forgets it.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::events::EventSink;
use crate::exec::run_tool_use;
use crate::session::Session;
use serde_json::json;
use tandem_protocol::{SessionEvent, ToolDetail, ToolOutcome};
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use super::fs::result_text;

/// How a command ended: its exit code, or the signal that stopped it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exit {
    pub code: Option<u32>,
    pub signal: Option<String>,
}

/// One terminal: the command's output so far and, once it ended, how.
struct Terminal {
    output: Mutex<Output>,
    exit: watch::Sender<Option<Exit>>,
    /// The code the Bash call's result named.
    code: Mutex<Option<u32>>,
    stop: CancellationToken,
}

#[derive(Default)]
struct Output {
    text: String,
    truncated: bool,
    limit: Option<u64>,
    /// Whether any output streamed (else the call's result is the output).
    streamed: bool,
}

impl Output {
    /// Adds output (a terminal's line ends, `\r\n`, as `\n`).
    fn push(&mut self, text: &str) {
        self.text.push_str(&text.replace("\r\n", "\n"));
        if let Some(limit) = self.limit.and_then(|l| usize::try_from(l).ok())
            && self.text.len() > limit
        {
            let mut cut = self.text.len() - limit;
            while !self.text.is_char_boundary(cut) {
                cut += 1;
            }
            self.text.drain(..cut);
            self.truncated = true;
        }
    }
}

/// What `terminal/output` answers.
#[derive(Debug, Clone)]
pub struct Snapshot {
    pub output: String,
    pub truncated: bool,
    pub exit: Option<Exit>,
}

/// The terminals of one run, by id.
#[derive(Default)]
pub struct Terminals {
    open: Mutex<HashMap<String, Arc<Terminal>>>,
    next: AtomicU64,
}

impl Terminals {
    fn get(&self, id: &str) -> Result<Arc<Terminal>, String> {
        self.open
            .lock()
            .ok()
            .and_then(|open| open.get(id).cloned())
            .ok_or_else(|| format!("no terminal {id}"))
    }

    /// Starts `command` with `args` (and `env` set, in `cwd` when given) as a Bash call of `session`; returns the
    /// terminal's id at once.
    pub fn create(
        self: &Arc<Self>,
        session: Arc<Session>,
        command: &str,
        args: &[String],
        env: &[(String, String)],
        cwd: Option<PathBuf>,
        limit: Option<u64>,
    ) -> String {
        let id = format!("term_{}", self.next.fetch_add(1, Ordering::Relaxed) + 1);
        let (exit, _) = watch::channel(None);
        let terminal = Arc::new(Terminal {
            output: Mutex::new(Output {
                limit,
                ..Output::default()
            }),
            exit,
            code: Mutex::new(None),
            stop: CancellationToken::new(),
        });
        if let Ok(mut open) = self.open.lock() {
            open.insert(id.clone(), terminal.clone());
        }
        let line = command_line(command, args, env, cwd.as_deref(), session.cwd());
        let call = id.clone();
        tokio::spawn(async move {
            let rt = session.runtime();
            rt.events.emit(SessionEvent::ToolCallStarted {
                tool_use_id: call.clone(),
                name: "Bash".into(),
            });
            let input =
                json!({ "command": line, "description": "A command the hosted agent runs" });
            let outcome = run_tool_use(rt, &call, "Bash", &input, &terminal.stop).await;
            let text = result_text(&outcome.block);
            let named = terminal.code.lock().ok().and_then(|c| *c);
            let exit = match outcome.outcome {
                ToolOutcome::Success => Exit {
                    code: Some(named.unwrap_or(0)),
                    signal: None,
                },
                ToolOutcome::Cancelled => Exit {
                    code: None,
                    signal: Some("SIGKILL".into()),
                },
                ToolOutcome::Error | ToolOutcome::Denied => Exit {
                    code: Some(named.or_else(|| exit_code_in(&text)).unwrap_or(1)),
                    signal: None,
                },
            };
            if let Ok(mut output) = terminal.output.lock()
                && !output.streamed
            {
                let shown = strip_exit_line(&text);
                output.push(shown);
            }
            terminal.exit.send_replace(Some(exit));
        });
        id
    }

    /// The output so far, and how the command ended if it did.
    pub fn output(&self, id: &str) -> Result<Snapshot, String> {
        let terminal = self.get(id)?;
        let exit = terminal.exit.borrow().clone();
        let output = terminal.output.lock().map_err(|_| "terminal state lost")?;
        Ok(Snapshot {
            output: output.text.clone(),
            truncated: output.truncated,
            exit,
        })
    }

    /// Waits until the command ends.
    pub async fn wait(&self, id: &str) -> Result<Exit, String> {
        let terminal = self.get(id)?;
        let mut exit = terminal.exit.subscribe();
        let ended = exit
            .wait_for(Option::is_some)
            .await
            .map_err(|_| format!("terminal {id} was lost"))?;
        ended
            .clone()
            .ok_or_else(|| format!("terminal {id} was lost"))
    }

    /// Stops the command (the terminal stays, with its output).
    pub fn kill(&self, id: &str) -> Result<(), String> {
        self.get(id)?.stop.cancel();
        Ok(())
    }

    /// Stops the command if it runs and forgets the terminal.
    pub fn release(&self, id: &str) -> Result<(), String> {
        let terminal = self
            .open
            .lock()
            .ok()
            .and_then(|mut open| open.remove(id))
            .ok_or_else(|| format!("no terminal {id}"))?;
        terminal.stop.cancel();
        Ok(())
    }

    /// Stops every command (the run is over).
    pub fn stop_all(&self) {
        if let Ok(open) = self.open.lock() {
            for terminal in open.values() {
                terminal.stop.cancel();
            }
        }
    }

    /// Takes a terminal's streamed output and exit code from the session's events.
    fn observe(&self, event: &SessionEvent) {
        match event {
            SessionEvent::ToolCallProgress { tool_use_id, text } => {
                if let Ok(terminal) = self.get(tool_use_id)
                    && let Ok(mut output) = terminal.output.lock()
                {
                    output.streamed = true;
                    output.push(text);
                }
            }
            SessionEvent::ToolCallResult {
                tool_use_id,
                detail: Some(ToolDetail::Shell { exit_code, .. }),
                ..
            } => {
                if let Ok(terminal) = self.get(tool_use_id)
                    && let Ok(mut code) = terminal.code.lock()
                {
                    *code = *exit_code;
                }
            }
            _ => {}
        }
    }
}

/// The session's sink with the terminals watching: every event goes on to `inner`.
pub struct TerminalTap {
    pub terminals: Arc<Terminals>,
    pub inner: Arc<dyn EventSink>,
}

impl EventSink for TerminalTap {
    fn emit(&self, event: SessionEvent) {
        self.terminals.observe(&event);
        self.inner.emit(event);
    }
}

/// A word as the shell reads it back unchanged.
fn quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_./=:,+-@%".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// The shell line for a terminal: the variables, the command and its arguments, in `cwd` when it is not the
/// session's folder.
fn command_line(
    command: &str,
    args: &[String],
    env: &[(String, String)],
    cwd: Option<&std::path::Path>,
    folder: &std::path::Path,
) -> String {
    let mut line = String::new();
    if let Some(dir) = cwd.filter(|dir| *dir != folder) {
        line.push_str(&format!("cd {} && ", quote(&dir.display().to_string())));
    }
    for (name, value) in env {
        line.push_str(&format!("{name}={} ", quote(value)));
    }
    // A command given alone may be a whole shell line (agents send `npm test` as the command).
    if args.is_empty() {
        line.push_str(command);
    } else {
        line.push_str(&quote(command));
        for arg in args {
            line.push(' ');
            line.push_str(&quote(arg));
        }
    }
    line
}

/// The code of an `Exit code N` first line.
fn exit_code_in(text: &str) -> Option<u32> {
    text.lines()
        .next()?
        .strip_prefix("Exit code ")?
        .trim()
        .parse()
        .ok()
}

fn strip_exit_line(text: &str) -> &str {
    match exit_code_in(text) {
        Some(_) => text.split_once('\n').map_or("", |(_, rest)| rest),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn a_terminal_command_is_one_shell_line() {
        let folder = Path::new("/p");
        type Row<'a> = (
            &'a str,
            &'a [&'a str],
            &'a [(&'a str, &'a str)],
            Option<&'a str>,
            &'a str,
        );
        let table: [Row<'_>; 4] = [
            ("npm test", &[], &[], None, "npm test"),
            (
                "echo",
                &["a b", "it's"],
                &[],
                Some("/p"),
                r"echo 'a b' 'it'\''s'",
            ),
            (
                "ls",
                &["-l"],
                &[("LANG", "C")],
                Some("/p/sub dir"),
                "cd '/p/sub dir' && LANG=C ls -l",
            ),
            ("env", &[], &[("X", "")], None, "X='' env"),
        ];
        for (command, args, env, cwd, expected) in table {
            let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
            let env: Vec<(String, String)> = env
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect();
            assert_eq!(
                command_line(command, &args, &env, cwd.map(Path::new), folder),
                expected
            );
        }
    }

    #[test]
    fn output_keeps_its_end_within_the_limit() {
        let mut output = Output {
            limit: Some(5),
            ..Output::default()
        };
        output.push("abc");
        assert!(!output.truncated);
        output.push("défg");
        assert!(output.truncated);
        assert!(
            output.text.len() <= 6 && output.text.ends_with("fg"),
            "{}",
            output.text
        );
        assert_eq!(exit_code_in("Exit code 3\nboom"), Some(3));
        assert_eq!(strip_exit_line("Exit code 3\nboom"), "boom");
        assert_eq!(strip_exit_line("fine"), "fine");
    }
}

//! Background shells: commands started with `run_in_background` or moved there while running, each with an id, its
//! raw output appended to a log file, and its state; read incrementally by TaskOutput, stopped by TaskStop (or the
//! person), those of a sub-agent when it ends, all when the session ends. Each start and end is announced to the
//! session's events.

use std::collections::BTreeMap;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tandem_protocol::{BackgroundReason, BackgroundShell, SessionEvent, TaskStatus, ToolDetail};
use tokio::sync::watch;

use super::error::BashError;
use super::output::{MAX_OUTPUT_CHARS, clean, cut_middle};
use super::pty::{Exit, PtyProcess};
use crate::events::EventSink;
use crate::process_group::kill_group;
use crate::tool::ToolError;

/// Where a background shell is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TaskState {
    Running,
    Exited(Exit),
    /// Stopped by TaskStop (or the session ending).
    Killed,
}

impl std::fmt::Display for TaskState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TaskState::Running => f.write_str("running"),
            TaskState::Exited(Exit::Code(code)) => write!(f, "exited with code {code}"),
            TaskState::Exited(Exit::Signal(sig)) => write!(f, "ended by signal {sig}"),
            TaskState::Exited(Exit::Unknown(why)) => write!(f, "ended ({why})"),
            TaskState::Killed => f.write_str("killed"),
        }
    }
}

/// One background shell.
pub struct BackgroundTask {
    pub id: String,
    pub command: String,
    pub pid: u32,
    /// The raw output (ANSI kept).
    pub log: PathBuf,
    /// The Bash call that started it, its description, and why it runs in the background.
    pub tool_use_id: String,
    pub description: Option<String>,
    pub reason: BackgroundReason,
    /// The sub-agent that started it; `None` for the session's own agent.
    pub owner: Option<String>,
    /// How much of the log TaskOutput has already returned.
    read_to: Mutex<u64>,
    state: watch::Sender<TaskState>,
    /// Where its start and end are announced.
    events: Option<Arc<dyn EventSink>>,
}

impl std::fmt::Debug for BackgroundTask {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BackgroundTask")
            .field("id", &self.id)
            .field("command", &self.command)
            .field("pid", &self.pid)
            .field("state", &self.state())
            .finish()
    }
}

/// What a new background task is.
#[derive(Debug, Clone, Copy)]
pub struct Adoption<'a> {
    pub command: &'a str,
    pub description: Option<&'a str>,
    pub tool_use_id: &'a str,
    pub reason: BackgroundReason,
    /// The sub-agent starting it.
    pub owner: Option<&'a str>,
    /// Output the command printed before it moved to the background (already given to the model): it starts the
    /// log, and TaskOutput returns only what follows.
    pub earlier: &'a [u8],
    /// A file the command writes when it exits that nobody reads any more (removed once it has ended).
    pub leftover: Option<&'a std::path::Path>,
}

impl BackgroundTask {
    /// The current state.
    pub fn state(&self) -> TaskState {
        self.state.borrow().clone()
    }

    /// Waits until the task is no longer running or `limit` passes; returns the state then.
    pub async fn wait(&self, limit: Duration) -> TaskState {
        let mut rx = self.state.subscribe();
        let _ = tokio::time::timeout(limit, rx.wait_for(|s| *s != TaskState::Running)).await;
        self.state()
    }

    /// Waits until the task is no longer running, however long that takes; returns the state then.
    pub async fn ended(&self) -> TaskState {
        let mut rx = self.state.subscribe();
        let _ = rx.wait_for(|s| *s != TaskState::Running).await;
        self.state()
    }

    /// The output written since the last call, cleaned for the model (and cut in the middle when long).
    pub fn read_new(&self) -> Result<String, BashError> {
        let mut read_to = self.read_to.lock().unwrap_or_else(|p| p.into_inner());
        let mut file = std::fs::File::open(&self.log)?;
        file.seek(SeekFrom::Start(*read_to))?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)?;
        *read_to += bytes.len() as u64;
        Ok(cut_middle(&clean(&bytes), MAX_OUTPUT_CHARS))
    }

    /// The task as a tool result's detail for the window.
    pub fn detail(&self) -> ToolDetail {
        let (status, exit_code) = match self.state() {
            TaskState::Running => (TaskStatus::Running, None),
            TaskState::Exited(Exit::Code(code)) => (TaskStatus::Exited, Some(code)),
            TaskState::Exited(_) => (TaskStatus::Exited, None),
            TaskState::Killed => (TaskStatus::Killed, None),
        };
        ToolDetail::BackgroundTask {
            task_id: self.id.clone(),
            command: self.command.clone(),
            log: self.log.display().to_string(),
            status,
            exit_code,
        }
    }

    /// The task as the window lists it.
    pub fn listing(&self) -> BackgroundShell {
        let (status, exit_code) = match self.state() {
            TaskState::Running => (TaskStatus::Running, None),
            TaskState::Exited(Exit::Code(code)) => (TaskStatus::Exited, Some(code)),
            TaskState::Exited(_) => (TaskStatus::Exited, None),
            TaskState::Killed => (TaskStatus::Killed, None),
        };
        BackgroundShell {
            task_id: self.id.clone(),
            tool_use_id: self.tool_use_id.clone(),
            command: self.command.clone(),
            description: self.description.clone(),
            status,
            exit_code,
            reason: self.reason,
            agent_id: self.owner.clone(),
        }
    }

    /// The last `max_bytes` of the raw output (ANSI kept), from a line start when cut; does not move TaskOutput's
    /// place.
    pub fn tail(&self, max_bytes: u64) -> Result<String, BashError> {
        let mut file = std::fs::File::open(&self.log)?;
        let len = file.metadata()?.len();
        let from = len.saturating_sub(max_bytes);
        file.seek(SeekFrom::Start(from))?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)?;
        if from > 0
            && let Some(newline) = bytes.iter().position(|b| *b == b'\n')
        {
            bytes.drain(..=newline);
        }
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }

    /// Kills the task's process group; returns whether it was still running.
    pub fn stop(&self) -> bool {
        let was_running = self.state() == TaskState::Running;
        if was_running {
            kill_group(self.pid);
            self.state.send_replace(TaskState::Killed);
            self.announce();
        }
        was_running
    }

    fn announce(&self) {
        if let Some(events) = &self.events {
            events.emit(SessionEvent::BackgroundShellChanged {
                shell: self.listing(),
            });
        }
    }
}

/// The background shells of one session.
pub struct BackgroundShells {
    dir: PathBuf,
    next: AtomicU64,
    tasks: Mutex<BTreeMap<String, Arc<BackgroundTask>>>,
    /// Where each task's start and end are announced.
    events: Option<Arc<dyn EventSink>>,
}

impl std::fmt::Debug for BackgroundShells {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BackgroundShells")
            .field("dir", &self.dir)
            .field("tasks", &self.ids())
            .finish()
    }
}

impl BackgroundShells {
    /// A registry keeping logs in `dir` (created on first use).
    pub fn new(dir: PathBuf) -> Self {
        Self {
            dir,
            next: AtomicU64::new(1),
            tasks: Mutex::new(BTreeMap::new()),
            events: None,
        }
    }

    /// Announces every task's start and end to `events`.
    pub fn announce_to(&mut self, events: Arc<dyn EventSink>) {
        self.events = Some(events);
    }

    /// Takes over a started process as a new background task; its output goes to `<dir>/<id>.log`.
    pub fn adopt(
        &self,
        adoption: Adoption<'_>,
        mut process: PtyProcess,
    ) -> Result<Arc<BackgroundTask>, BashError> {
        std::fs::create_dir_all(&self.dir)?;
        let id = format!("shell_{}", self.next.fetch_add(1, Ordering::Relaxed));
        let log = self.dir.join(format!("{id}.log"));
        let mut file = std::fs::File::create(&log)?;
        file.write_all(adoption.earlier)?;
        let (state, _) = watch::channel(TaskState::Running);
        let task = Arc::new(BackgroundTask {
            id: id.clone(),
            command: adoption.command.to_string(),
            pid: process.pid,
            log,
            tool_use_id: adoption.tool_use_id.to_string(),
            description: adoption.description.map(str::to_string),
            reason: adoption.reason,
            owner: adoption.owner.map(str::to_string),
            read_to: Mutex::new(adoption.earlier.len() as u64),
            state,
            events: self.events.clone(),
        });
        let pump = Arc::clone(&task);
        let leftover = adoption.leftover.map(std::path::Path::to_path_buf);
        tokio::spawn(async move {
            let mut exit = None;
            loop {
                tokio::select! {
                    chunk = process.chunks.recv() => match chunk {
                        Some(bytes) => {
                            let _ = file.write_all(&bytes);
                        }
                        None => break,
                    },
                    status = &mut process.exit, if exit.is_none() => {
                        exit = Some(status.unwrap_or_else(|_| Exit::Unknown("the status was lost".into())));
                        // Whatever the shell left behind goes with it; the terminal then closes.
                        kill_group(process.pid);
                    }
                }
            }
            let _ = file.flush();
            let exit = match exit {
                Some(exit) => exit,
                None => (&mut process.exit)
                    .await
                    .unwrap_or_else(|_| Exit::Unknown("the status was lost".into())),
            };
            let ended = pump.state.send_if_modified(|s| {
                if *s == TaskState::Running {
                    *s = TaskState::Exited(exit);
                    true
                } else {
                    false
                }
            });
            if let Some(file) = leftover {
                let _ = std::fs::remove_file(file);
            }
            if ended {
                pump.announce();
            }
        });
        if let Ok(mut tasks) = self.tasks.lock() {
            tasks.insert(id, Arc::clone(&task));
        }
        task.announce();
        Ok(task)
    }

    /// Every task, oldest first, as the window lists them.
    pub fn listings(&self) -> Vec<BackgroundShell> {
        let Ok(tasks) = self.tasks.lock() else {
            return Vec::new();
        };
        let mut all: Vec<&Arc<BackgroundTask>> = tasks.values().collect();
        all.sort_by_key(|t| id_number(&t.id));
        all.into_iter().map(|t| t.listing()).collect()
    }

    /// Stops every running task `owner` (a sub-agent) started; returns how many were running.
    pub fn stop_owned_by(&self, owner: &str) -> usize {
        let owned: Vec<Arc<BackgroundTask>> = self
            .tasks
            .lock()
            .map(|t| {
                t.values()
                    .filter(|task| task.owner.as_deref() == Some(owner))
                    .cloned()
                    .collect()
            })
            .unwrap_or_default();
        owned.iter().filter(|task| task.stop()).count()
    }

    /// The task with `id`.
    pub fn get(&self, id: &str) -> Option<Arc<BackgroundTask>> {
        self.tasks.lock().ok().and_then(|t| t.get(id).cloned())
    }

    /// The task `id`, or the error for the model naming the tasks there are.
    pub fn find(&self, id: &str) -> Result<Arc<BackgroundTask>, ToolError> {
        self.get(id).ok_or_else(|| {
            let ids = self.ids();
            let known = if ids.is_empty() {
                "there are no background tasks".to_string()
            } else {
                format!("the background tasks are {}", ids.join(", "))
            };
            ToolError::to_model(format!("No background task with ID {id}: {known}."))
        })
    }

    /// The ids of all tasks, sorted.
    pub fn ids(&self) -> Vec<String> {
        self.tasks
            .lock()
            .map(|t| t.keys().cloned().collect())
            .unwrap_or_default()
    }
}

/// `shell_12` → 12 (ids sort by number, not as text).
fn id_number(id: &str) -> u64 {
    id.rsplit('_')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(u64::MAX)
}

impl Drop for BackgroundShells {
    fn drop(&mut self) {
        if let Ok(tasks) = self.tasks.lock() {
            for task in tasks.values() {
                task.stop();
            }
        }
    }
}

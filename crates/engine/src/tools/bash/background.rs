//! Background shells: commands started with `run_in_background`, each with an id, its raw output appended to a
//! log file, and its state; read incrementally by TaskOutput, stopped by TaskStop, all killed when the session
//! ends.

use std::collections::BTreeMap;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tandem_protocol::{TaskStatus, ToolDetail};
use tokio::sync::watch;

use super::error::BashError;
use super::output::{MAX_OUTPUT_CHARS, clean, cut_middle};
use super::pty::{Exit, PtyProcess};
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
#[derive(Debug)]
pub struct BackgroundTask {
    pub id: String,
    pub command: String,
    pub pid: u32,
    /// The raw output (ANSI kept).
    pub log: PathBuf,
    /// How much of the log TaskOutput has already returned.
    read_to: Mutex<u64>,
    state: watch::Sender<TaskState>,
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

    /// Kills the task's process group; returns whether it was still running.
    pub fn stop(&self) -> bool {
        let was_running = self.state() == TaskState::Running;
        if was_running {
            kill_group(self.pid);
            self.state.send_replace(TaskState::Killed);
        }
        was_running
    }
}

/// The background shells of one session.
#[derive(Debug)]
pub struct BackgroundShells {
    dir: PathBuf,
    next: AtomicU64,
    tasks: Mutex<BTreeMap<String, Arc<BackgroundTask>>>,
}

impl BackgroundShells {
    /// A registry keeping logs in `dir` (created on first use).
    pub fn new(dir: PathBuf) -> Self {
        Self {
            dir,
            next: AtomicU64::new(1),
            tasks: Mutex::new(BTreeMap::new()),
        }
    }

    /// Takes over a started process as a new background task; its output goes to `<dir>/<id>.log`.
    pub fn adopt(
        &self,
        command: &str,
        mut process: PtyProcess,
    ) -> Result<Arc<BackgroundTask>, BashError> {
        std::fs::create_dir_all(&self.dir)?;
        let id = format!("shell_{}", self.next.fetch_add(1, Ordering::Relaxed));
        let log = self.dir.join(format!("{id}.log"));
        let mut file = std::fs::File::create(&log)?;
        let (state, _) = watch::channel(TaskState::Running);
        let task = Arc::new(BackgroundTask {
            id: id.clone(),
            command: command.to_string(),
            pid: process.pid,
            log,
            read_to: Mutex::new(0),
            state,
        });
        let pump = Arc::clone(&task);
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
            pump.state.send_if_modified(|s| {
                if *s == TaskState::Running {
                    *s = TaskState::Exited(exit);
                    true
                } else {
                    false
                }
            });
        });
        if let Ok(mut tasks) = self.tasks.lock() {
            tasks.insert(id, Arc::clone(&task));
        }
        Ok(task)
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

impl Drop for BackgroundShells {
    fn drop(&mut self) {
        if let Ok(tasks) = self.tasks.lock() {
            for task in tasks.values() {
                task.stop();
            }
        }
    }
}

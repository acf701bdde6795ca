//! The project's scheduled prompts, kept in `.claude/scheduled_tasks.json` (`{"tasks": [...]}`): read, changed and
//! written back whole through a temporary file, one change at a time in this process. A file that cannot be read or
//! parsed is reported and never written over. A task with a `target` (`ssh://…`) is a RemoteTrigger's, run on that
//! machine; the others are sent to the session as prompts.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use super::schedule::Schedule;

/// Where the scheduled prompts live, relative to the project folder.
pub const TASKS_FILE: &str = ".claude/scheduled_tasks.json";

/// One scheduled prompt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScheduledTask {
    /// Short and unique in the file.
    pub id: String,
    /// The five-field cron expression, in local time.
    pub cron: String,
    /// What is sent as a prompt when it fires.
    pub prompt: String,
    /// `false`: fires once, then is removed.
    pub recurring: bool,
    /// When it was created (milliseconds since the epoch): the first fire comes after this.
    pub created_at: i64,
    /// When it last fired (milliseconds since the epoch): the next fire comes after this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_fired_at: Option<i64>,
    /// A RemoteTrigger's machine and folder (`ssh://[user@]host[:port]/abs/path`): the prompt runs there with
    /// `tandem -p` instead of in the session.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
}

impl ScheduledTask {
    /// The instant its next fire is counted from.
    pub fn anchor_ms(&self) -> i64 {
        self.last_fired_at.unwrap_or(self.created_at)
    }
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct TasksFile {
    #[serde(default)]
    tasks: Vec<ScheduledTask>,
}

/// What went wrong with the file.
#[derive(Debug, thiserror::Error)]
pub enum TasksError {
    #[error("cannot read the scheduled prompts in {}: {source}", path.display())]
    Read { path: PathBuf, source: io::Error },
    #[error(
        "the scheduled prompts in {} cannot be parsed ({why}); fix or remove the file (it was left as it is)",
        path.display()
    )]
    Damaged { path: PathBuf, why: String },
    #[error("cannot write the scheduled prompts to {}: {source}", path.display())]
    Write { path: PathBuf, source: io::Error },
    #[error("no scheduled prompt has the id `{id}` ({known})")]
    UnknownId { id: String, known: String },
}

/// Changes to task files are made one at a time in this process (the tools of several sessions and their
/// schedulers may share one project).
static CHANGING: Mutex<()> = Mutex::new(());

/// The scheduled prompts of one project.
#[derive(Debug, Clone)]
pub struct TaskFile {
    path: PathBuf,
}

impl TaskFile {
    /// The file of the project in `root`.
    pub fn of_project(root: &Path) -> Self {
        Self {
            path: root.join(TASKS_FILE),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The tasks in the file (none when there is no file).
    pub fn load(&self) -> Result<Vec<ScheduledTask>, TasksError> {
        let text = match std::fs::read_to_string(&self.path) {
            Ok(text) => text,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(source) => {
                return Err(TasksError::Read {
                    path: self.path.clone(),
                    source,
                });
            }
        };
        if text.trim().is_empty() {
            return Ok(Vec::new());
        }
        serde_json::from_str::<TasksFile>(&text)
            .map(|file| file.tasks)
            .map_err(|e| TasksError::Damaged {
                path: self.path.clone(),
                why: e.to_string(),
            })
    }

    /// Runs `change` on the tasks and writes them back when it succeeds and changed them; an error leaves the file
    /// as it was.
    pub fn update<R>(
        &self,
        change: impl FnOnce(&mut Vec<ScheduledTask>) -> Result<R, TasksError>,
    ) -> Result<R, TasksError> {
        let _one_at_a_time = CHANGING.lock().unwrap_or_else(|e| e.into_inner());
        let before = self.load()?;
        let mut tasks = before.clone();
        let out = change(&mut tasks)?;
        if tasks != before {
            self.save(&tasks)?;
        }
        Ok(out)
    }

    fn save(&self, tasks: &[ScheduledTask]) -> Result<(), TasksError> {
        let write_error = |source| TasksError::Write {
            path: self.path.clone(),
            source,
        };
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir).map_err(write_error)?;
        }
        let file = TasksFile {
            tasks: tasks.to_vec(),
        };
        let mut text =
            serde_json::to_string_pretty(&file).map_err(|e| write_error(io::Error::other(e)))?;
        text.push('\n');
        let like = std::fs::metadata(&self.path).ok();
        crate::fsutil::write_atomic(&self.path, &[text.as_bytes()], like.as_ref())
            .map_err(write_error)
    }

    /// Adds a task for the checked `schedule` and returns it.
    pub fn add(
        &self,
        schedule: &Schedule,
        prompt: &str,
        recurring: bool,
        now_ms: i64,
    ) -> Result<ScheduledTask, TasksError> {
        self.add_for(schedule, prompt, recurring, None, now_ms)
    }

    /// Adds a task for the checked `schedule`, run on `target` (a RemoteTrigger) when given, and returns it.
    pub fn add_for(
        &self,
        schedule: &Schedule,
        prompt: &str,
        recurring: bool,
        target: Option<&str>,
        now_ms: i64,
    ) -> Result<ScheduledTask, TasksError> {
        self.update(|tasks| {
            let task = ScheduledTask {
                id: fresh_id(tasks),
                cron: schedule.expr().to_string(),
                prompt: prompt.to_string(),
                recurring,
                created_at: now_ms,
                last_fired_at: None,
                target: target.map(str::to_string),
            };
            tasks.push(task.clone());
            Ok(task)
        })
    }

    /// Removes the task `id` and returns it; an unknown id is an error naming the ids there are.
    pub fn remove(&self, id: &str) -> Result<ScheduledTask, TasksError> {
        let id = id.trim();
        self.update(|tasks| match tasks.iter().position(|t| t.id == id) {
            Some(at) => Ok(tasks.remove(at)),
            None => Err(TasksError::UnknownId {
                id: id.to_string(),
                known: match tasks.len() {
                    0 => "there are none".to_string(),
                    _ => format!(
                        "there are: {}",
                        tasks
                            .iter()
                            .map(|t| t.id.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                },
            }),
        })
    }

    /// Takes the tasks due at `now_ms` (their next fire after their anchor has come) and returns them: a recurring
    /// one is marked fired at `now_ms` (so fires missed while nothing ran are not replayed: at most one catch-up),
    /// a one-shot one is removed. A task whose expression no longer parses (the file was edited by hand) is left
    /// alone.
    pub fn claim_due(&self, now_ms: i64) -> Result<Vec<ScheduledTask>, TasksError> {
        self.claim_due_of(now_ms, false)
    }

    /// As [`TaskFile::claim_due`], for the tasks with a target (`remote`: RemoteTrigger's) or those without.
    pub fn claim_due_of(
        &self,
        now_ms: i64,
        remote: bool,
    ) -> Result<Vec<ScheduledTask>, TasksError> {
        self.update(|tasks| {
            let mut due = Vec::new();
            tasks.retain_mut(|task| {
                if task.target.is_some() != remote {
                    return true;
                }
                let next = Schedule::parse(&task.cron)
                    .ok()
                    .and_then(|s| s.next_after_ms(task.anchor_ms()));
                if next.is_none_or(|next| next.timestamp_millis() > now_ms) {
                    return true;
                }
                due.push(task.clone());
                if task.recurring {
                    task.last_fired_at = Some(now_ms);
                }
                task.recurring
            });
            Ok(due)
        })
    }
}

/// Eight hex digits not used by another task.
fn fresh_id(tasks: &[ScheduledTask]) -> String {
    loop {
        let id = uuid::Uuid::new_v4().simple().to_string()[..8].to_string();
        if !tasks.iter().any(|t| t.id == id) {
            return id;
        }
    }
}

//! Scheduled prompts (behind `AGENT_TRIGGERS`; docs/engine-doors.md): CronCreate, CronDelete and CronList keep the
//! project's prompts in `.claude/scheduled_tasks.json`; the session's scheduler (`session::run_scheduled_prompts`)
//! sends each as a prompt when its cron expression comes due.

mod create;
mod delete;
mod list;
pub mod schedule;
pub mod store;

use std::path::Path;
use std::sync::Arc;

use chrono::{DateTime, Local};

pub use create::CronCreateTool;
pub use delete::CronDeleteTool;
pub use list::CronListTool;
pub use schedule::{Schedule, ScheduleError};
pub use store::{ScheduledTask, TASKS_FILE, TaskFile, TasksError};

use crate::tool::{DynTool, ToolContext, erase};

/// The three tools.
pub fn tools() -> Vec<Arc<dyn DynTool>> {
    vec![
        erase(CronCreateTool),
        erase(CronDeleteTool),
        erase(CronListTool),
    ]
}

/// The task file of the project a call works in (the session's project folder).
pub(crate) fn task_file(ctx: &ToolContext) -> TaskFile {
    let root: &Path = ctx.working_dirs.first().unwrap_or(&ctx.cwd);
    TaskFile::of_project(root)
}

/// A fire time as the model is shown it (local time with its offset).
pub(crate) fn shown(time: &DateTime<Local>) -> String {
    time.format("%Y-%m-%d %H:%M %:z").to_string()
}

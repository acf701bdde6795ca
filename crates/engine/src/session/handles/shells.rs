//! What the window asks of a session's shells: move a running command to the background, list the background
//! shells, read one's output and stop it.

use tandem_protocol::BackgroundShell;

use crate::tools::bash::ShellSession;

/// The most output of a background shell the window is given at once (its tail), in bytes.
pub const SHELL_OUTPUT_TAIL_BYTES: u64 = 64 * 1024;

/// What a caller holds to move commands to the background and to list, read and stop background shells.
#[derive(Clone, Copy)]
pub struct ShellsHandle<'a> {
    pub(in crate::session) shell: &'a ShellSession,
}

impl ShellsHandle<'_> {
    /// Moves the running foreground Bash command of call `tool_use_id` (every running one when `None`, as the
    /// window's key does) to the background, where it goes on; the call ends with a result giving the task's id.
    /// Returns how many commands were moved.
    pub fn send_to_background(&self, tool_use_id: Option<&str>) -> usize {
        self.shell.send_to_background(tool_use_id)
    }

    /// The call ids of the foreground Bash commands running now.
    pub fn running_commands(&self) -> Vec<String> {
        self.shell.running_foreground()
    }

    /// The session's background shells, oldest first (sub-agents' included).
    pub fn background_shells(&self) -> Vec<BackgroundShell> {
        self.shell.tasks.listings()
    }

    /// The last [`SHELL_OUTPUT_TAIL_BYTES`] of background shell `task_id`'s raw output (ANSI kept); `None` when there
    /// is no such shell. Reading it does not move TaskOutput's place.
    pub fn background_shell_output(&self, task_id: &str) -> Option<String> {
        let task = self.shell.tasks.get(task_id)?;
        Some(task.tail(SHELL_OUTPUT_TAIL_BYTES).unwrap_or_default())
    }

    /// Stops background shell `task_id` with every process it started; returns whether it was running.
    pub fn stop_background_shell(&self, task_id: &str) -> bool {
        self.shell
            .tasks
            .get(task_id)
            .is_some_and(|task| task.stop())
    }
}

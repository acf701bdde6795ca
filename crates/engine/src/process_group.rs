//! Killing a command with everything it started (shell commands, hooks): the command leads its own process group, so
//! one signal to the group reaches its children and grandchildren.

use rustix::process::{Pid, Signal, kill_process_group};

/// Sends SIGKILL to the process group led by `pid`; a group that is already gone is not an error.
pub fn kill_group(pid: u32) {
    if let Some(pid) = i32::try_from(pid).ok().and_then(Pid::from_raw) {
        let _ = kill_process_group(pid, Signal::KILL);
    }
}

/// Kills the process group when dropped unless disarmed: a running command never outlives the future that runs
/// it (the executor drops a call's future when the call is interrupted).
#[derive(Debug)]
pub struct GroupGuard {
    pid: u32,
    armed: bool,
}

impl GroupGuard {
    /// A guard for the group led by `pid`.
    pub fn new(pid: u32) -> Self {
        Self { pid, armed: true }
    }

    /// Leaves the group alone when the guard is dropped.
    pub fn disarm(&mut self) {
        self.armed = false;
    }

    /// Kills the group now (and disarms the guard).
    pub fn kill(&mut self) {
        kill_group(self.pid);
        self.armed = false;
    }
}

impl Drop for GroupGuard {
    fn drop(&mut self) {
        if self.armed {
            kill_group(self.pid);
        }
    }
}

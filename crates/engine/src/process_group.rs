//! Killing a command with everything it started (shell commands, hooks): the command leads its own process group, so
//! one signal to the group reaches its children and grandchildren. An interactive shell puts each job in a group of
//! its own: [`kill_session`] reaches them all.

use rustix::process::{Pid, Signal, kill_process_group};

/// Sends SIGKILL to the process group led by `pid`; a group that is already gone is not an error.
pub fn kill_group(pid: u32) {
    if let Some(pid) = i32::try_from(pid).ok().and_then(Pid::from_raw) {
        let _ = kill_process_group(pid, Signal::KILL);
    }
}

/// Sends SIGKILL to every process group of the session led by `leader` (an interactive shell in a terminal of its
/// own and the jobs it started, each in its group), the leader's group last. Where the processes cannot be listed
/// (no `/proc`), the groups of `known` (the terminal's foreground job) and the leader's are killed.
pub fn kill_session(leader: u32, known: &[u32]) {
    let mut groups: Vec<u32> = known.to_vec();
    if let Ok(entries) = std::fs::read_dir("/proc") {
        for entry in entries.flatten() {
            let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
            if let Some((group, session)) = group_and_session(&stat)
                && session == leader
            {
                groups.push(group);
            }
        }
    }
    groups.sort_unstable();
    groups.dedup();
    for group in groups.into_iter().filter(|g| *g != leader) {
        kill_group(group);
    }
    kill_group(leader);
}

/// The process group and session of a process, from its `/proc/PID/stat` line (after the name in parentheses come
/// its state, parent, group and session).
fn group_and_session(stat: &str) -> Option<(u32, u32)> {
    let mut fields = stat.rsplit_once(')')?.1.split_whitespace().skip(2);
    let group = fields.next()?.parse().ok()?;
    let session = fields.next()?.parse().ok()?;
    Some((group, session))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_group_and_session_are_read_after_the_name() {
        let cases: &[(&str, Option<(u32, u32)>)] = &[
            ("42 (sh) S 1 42 42 34816 42 4194560", Some((42, 42))),
            ("77 (a) b (c)) R 42 77 42 0", Some((77, 42))),
            ("2 (kthreadd) S 0 0 0 0 -1", Some((0, 0))),
            ("garbage", None),
        ];
        for (stat, want) in cases {
            assert_eq!(group_and_session(stat), *want, "{stat}");
        }
    }
}

//! What a tool call asks permission for, as the tool describes it.

use std::path::PathBuf;

/// The thing the permission engine judges for one call. Tools describe themselves; the engine decides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PermissionSubject {
    /// Nothing beyond the tool itself: whole-tool rules, parameter rules and the mode apply (MCP tools, most
    /// built-ins).
    Tool,
    /// Reading a path (Read, Glob, Grep, NotebookRead): `Read(...)` rules apply.
    ReadPath(PathBuf),
    /// Writing a path (Edit, Write, NotebookEdit): `Edit(...)` rules (and the tool's own) apply.
    WritePath(PathBuf),
    /// A shell command: `Bash(...)` rules and shell analysis apply.
    Shell { command: String },
    /// Fetching a URL: `WebFetch(domain:...)` rules apply. `private_address` names the loopback, private or
    /// link-local address the host is or resolves to: such a fetch asks in every mode unless an allow rule names the
    /// host exactly.
    Fetch {
        url: String,
        private_address: Option<String>,
    },
    /// Invoking a skill: `Skill(name)` rules apply; a skill that would allow tools (`grants`) asks unless a rule
    /// allows it.
    Skill { name: String, grants: Vec<String> },
    /// Starting a sub-agent: `Agent(type)` rules apply.
    Agent { subagent_type: Option<String> },
    /// The call only touches what this session itself started or owns (its background tasks, its to-do list), so
    /// it needs no permission beyond what started them; deny rules naming the tool still apply. Not the same as
    /// read-only: stopping a task changes something, but nothing the session was not already allowed to change.
    SessionOwned,
    /// Reading something of the person's own, outside the project, that may show secrets (the window's terminal
    /// panel): read-only for scheduling, but being read-only does not approve it and no mode but
    /// bypassPermissions does: deny and ask rules, then an allow rule naming the tool, else it asks. `what` says
    /// what is read, for the question.
    PersonalRead { what: String },
}

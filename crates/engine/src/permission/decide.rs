//! `decide()`: one answer with its reason for one tool call.

use std::path::{Component, Path, PathBuf};

use serde_json::Value;
use tandem_protocol::{DecisionBehavior, PermissionDecision, PermissionMode};

use super::{PermissionContext, PermissionSubject};

/// The facts about one call that the decision needs.
#[derive(Debug, Clone, Copy)]
pub struct CallView<'a> {
    pub tool_name: &'a str,
    pub input: &'a Value,
    pub subject: &'a PermissionSubject,
    pub read_only: bool,
}

/// Removes `.` and `..` components lexically.
fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// Answers the permission question for one call.
pub fn decide(ctx: &PermissionContext, call: &CallView<'_>) -> PermissionDecision {
    use DecisionBehavior::*;
    let asked = match call.subject {
        PermissionSubject::ReadPath(path) => {
            let path = normalise(path);
            let resolved = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
            if ctx.is_inside_working_dirs(&path) && ctx.is_inside_working_dirs(&resolved) {
                return PermissionDecision::new(
                    Allow,
                    "reads inside the working directories are allowed",
                );
            }
            format!("{} is outside the working directories", path.display())
        }
        _ if call.read_only => {
            return PermissionDecision::new(Allow, format!("{} is read-only", call.tool_name));
        }
        _ => format!("{} needs approval", call.tool_name),
    };
    match ctx.mode {
        PermissionMode::BypassPermissions => {
            PermissionDecision::new(Allow, "bypassPermissions mode allows what no rule stops")
        }
        PermissionMode::DontAsk => {
            PermissionDecision::new(Deny, format!("{asked}; dontAsk mode denies what would ask"))
        }
        _ => PermissionDecision::new(Ask, asked),
    }
}

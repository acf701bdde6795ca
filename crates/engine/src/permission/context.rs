//! The immutable permission context of a session: mode and working directories. A change makes a new context.

use std::path::{Path, PathBuf};

use tandem_protocol::PermissionMode;

/// Everything the permission engine needs to know about a session, frozen. Shared as an `Arc`; a change (new mode,
/// new grant) produces a new context rather than mutating this one.
#[derive(Debug, Clone, PartialEq)]
pub struct PermissionContext {
    pub mode: PermissionMode,
    /// The project root.
    pub project_root: PathBuf,
    /// The project root first, then additional working directories.
    pub working_dirs: Vec<PathBuf>,
}

impl PermissionContext {
    /// A context for a project folder in `mode` with no extra directories.
    pub fn new(project_root: impl Into<PathBuf>, mode: PermissionMode) -> Self {
        let project_root = project_root.into();
        Self {
            mode,
            working_dirs: vec![project_root.clone()],
            project_root,
        }
    }

    /// The same context in another mode.
    pub fn with_mode(&self, mode: PermissionMode) -> Self {
        Self {
            mode,
            ..self.clone()
        }
    }

    /// Whether `path` (absolute, normalised) lies inside one of the working directories.
    pub fn is_inside_working_dirs(&self, path: &Path) -> bool {
        self.working_dirs.iter().any(|dir| path.starts_with(dir))
    }
}

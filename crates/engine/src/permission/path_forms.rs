//! A path in the two forms every path rule and working-directory check looks at: as written (normalised) and with
//! symlinks resolved.

use std::path::{Path, PathBuf};

use super::path_pattern::{normalise, resolve_links};

/// A path as written and with symlinks resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PathForms {
    pub lexical: PathBuf,
    pub resolved: PathBuf,
}

impl PathForms {
    pub fn of(path: &Path) -> Self {
        let lexical = normalise(path);
        let resolved = resolve_links(&lexical);
        Self { lexical, resolved }
    }

    pub(crate) fn both(&self) -> [&Path; 2] {
        [&self.lexical, &self.resolved]
    }
}

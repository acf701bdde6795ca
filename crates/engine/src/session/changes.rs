//! The session's changes view: which sub-agents changed which files, and how one file is shown — as it was before
//! the session first changed it and as it is now, so the window can show one combined diff per file.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Mutex;

use tandem_protocol::{ChangedFile, SubAgentOrigin};

use crate::tools::file_io::encoding::decode;
use crate::tools::file_io::preview::MAX_DIFF_BYTES;

/// Which sub-agents changed which files (by absolute path), each named once per file, in the order they did.
#[derive(Debug, Default)]
pub struct Attribution {
    by_path: Mutex<HashMap<String, Vec<SubAgentOrigin>>>,
}

impl Attribution {
    /// Records that `origin` changed `path`.
    pub fn record(&self, path: &str, origin: &SubAgentOrigin) {
        let mut map = match self.by_path.lock() {
            Ok(m) => m,
            Err(poisoned) => poisoned.into_inner(),
        };
        let list = map.entry(path.to_string()).or_default();
        if !list.iter().any(|o| o.agent_id == origin.agent_id) {
            list.push(origin.clone());
        }
    }

    /// Every path recorded, sorted.
    pub fn paths(&self) -> Vec<String> {
        let mut paths: Vec<String> = match self.by_path.lock() {
            Ok(m) => m.keys().cloned().collect(),
            Err(poisoned) => poisoned.into_inner().keys().cloned().collect(),
        };
        paths.sort();
        paths
    }

    /// The sub-agents that changed `path`.
    pub fn of(&self, path: &str) -> Vec<SubAgentOrigin> {
        match self.by_path.lock() {
            Ok(m) => m.get(path).cloned().unwrap_or_default(),
            Err(poisoned) => poisoned.into_inner().get(path).cloned().unwrap_or_default(),
        }
    }
}

/// How file `path` is shown in the changes view: `before` (its contents before the session first changed it) and
/// what it holds now, or why the two are not shown.
pub(super) fn changed_file(path: &Path, before: Option<Vec<u8>>) -> ChangedFile {
    let after = match std::fs::metadata(path) {
        Ok(meta) if meta.is_file() => std::fs::read(path).ok(),
        _ => None,
    };
    let size = before.as_ref().map_or(0, Vec::len) + after.as_ref().map_or(0, Vec::len);
    let omitted = |why: &str| ChangedFile {
        path: path.display().to_string(),
        before: None,
        after: None,
        omitted: Some(why.to_string()),
        changed_by: Vec::new(),
    };
    if size > MAX_DIFF_BYTES {
        return omitted("too large to show here");
    }
    let text = |bytes: Option<Vec<u8>>| -> Result<Option<String>, ()> {
        bytes
            .map(|b| decode(b).map(|f| f.text).map_err(|_| ()))
            .transpose()
    };
    match (text(before), text(after)) {
        (Ok(before), Ok(after)) => ChangedFile {
            path: path.display().to_string(),
            before,
            after,
            omitted: None,
            changed_by: Vec::new(),
        },
        _ => omitted("binary content"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_files_show_both_sides_and_binary_or_huge_ones_say_why_not() {
        let dir = tempfile::tempdir().expect("tempdir");
        let text = dir.path().join("a.txt");
        std::fs::write(&text, "new\n").expect("write");
        let shown = changed_file(&text, Some(b"old\n".to_vec()));
        assert_eq!(shown.before.as_deref(), Some("old\n"));
        assert_eq!(shown.after.as_deref(), Some("new\n"));
        assert_eq!(shown.omitted, None);

        let gone = changed_file(
            &dir.path().join("removed.txt"),
            Some(b"was here\n".to_vec()),
        );
        assert_eq!(
            (gone.before.as_deref(), gone.after),
            (Some("was here\n"), None)
        );

        let binary = dir.path().join("b.bin");
        std::fs::write(&binary, [0u8, 159, 146, 150, 0, 1]).expect("write");
        assert_eq!(
            changed_file(&binary, None).omitted.as_deref(),
            Some("binary content")
        );

        let huge = dir.path().join("huge.txt");
        std::fs::write(&huge, "x".repeat(MAX_DIFF_BYTES + 1)).expect("write");
        assert_eq!(
            changed_file(&huge, None).omitted.as_deref(),
            Some("too large to show here")
        );
    }
}

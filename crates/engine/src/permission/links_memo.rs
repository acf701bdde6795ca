//! What one decision learnt about symbolic links: while a [`LinksMemo`] lives, resolving a path this thread resolved
//! before answers from memory instead of asking the file system again (a command names the same folders many times:
//! its working directory under every relative word, a file both as a mention and as a touch). The memory lasts one
//! decision only, so a later decision sees the file system as it is then.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// What the file system answered, by path.
#[derive(Default)]
struct Memo {
    canonical: HashMap<PathBuf, Option<PathBuf>>,
    is_link: HashMap<PathBuf, bool>,
}

thread_local! {
    static MEMO: RefCell<Option<Memo>> = const { RefCell::new(None) };
}

/// `ask(path)`, answered from the map `pick` chooses while a [`LinksMemo`] lives.
fn remembered<T: Clone>(
    path: &Path,
    pick: fn(&mut Memo) -> &mut HashMap<PathBuf, T>,
    ask: impl FnOnce(&Path) -> T,
) -> T {
    let known = MEMO.with(|memo| {
        memo.borrow_mut()
            .as_mut()
            .and_then(|m| pick(m).get(path).cloned())
    });
    if let Some(known) = known {
        return known;
    }
    let found = ask(path);
    MEMO.with(|memo| {
        if let Some(m) = memo.borrow_mut().as_mut() {
            pick(m).insert(path.to_path_buf(), found.clone());
        }
    });
    found
}

/// The memory of one decision on this thread; forgotten when the outermost one is dropped.
pub(crate) struct LinksMemo {
    outermost: bool,
}

impl LinksMemo {
    /// Starts remembering (or joins the memory of a decision already running on this thread).
    pub(crate) fn start() -> Self {
        MEMO.with(|memo| {
            let mut memo = memo.borrow_mut();
            let outermost = memo.is_none();
            if outermost {
                *memo = Some(Memo::default());
            }
            Self { outermost }
        })
    }
}

impl Drop for LinksMemo {
    fn drop(&mut self) {
        if self.outermost {
            MEMO.with(|memo| *memo.borrow_mut() = None);
        }
    }
}

/// `std::fs::canonicalize(path)`, answered from memory while a [`LinksMemo`] lives.
pub(super) fn canonical(path: &Path) -> Option<PathBuf> {
    remembered(
        path,
        |m| &mut m.canonical,
        |p| std::fs::canonicalize(p).ok(),
    )
}

/// Whether `path` is a symbolic link, answered from memory while a [`LinksMemo`] lives.
pub(super) fn is_link(path: &Path) -> bool {
    remembered(
        path,
        |m| &mut m.is_link,
        |p| std::fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_symlink()),
    )
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_link_is_resolved_once_per_decision_and_afresh_in_the_next() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = std::fs::canonicalize(dir.path()).expect("canonical");
        let (a, b, link) = (root.join("a"), root.join("b"), root.join("link"));
        std::fs::create_dir(&a).expect("a");
        std::fs::create_dir(&b).expect("b");
        std::os::unix::fs::symlink(&a, &link).expect("link");
        let repoint = || {
            std::fs::remove_file(&link).expect("unlink");
            std::os::unix::fs::symlink(&b, &link).expect("relink");
        };

        {
            let _decision = LinksMemo::start();
            assert_eq!(canonical(&link), Some(a.clone()));
            repoint();
            // Within one decision (and a nested one), the first answer holds.
            let _nested = LinksMemo::start();
            assert_eq!(canonical(&link), Some(a.clone()));
            assert!(is_link(&link));
        }
        // The next decision sees the link as it is now.
        let next = LinksMemo::start();
        assert_eq!(canonical(&link), Some(b.clone()));
        drop(next);
        // Outside any decision nothing is remembered.
        std::fs::remove_file(&link).expect("unlink");
        assert_eq!(canonical(&link), None);
        assert!(!is_link(&link));
    }
}

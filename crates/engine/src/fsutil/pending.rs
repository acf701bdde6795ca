//! Temporary files of writes in progress, noted beside the app's data so that a write cut off before its rename
//! (the process killed, the machine stopped) does not leave its temporary file behind for ever: each write notes
//! its temporary file's path with the writer's process id, and removes the note when done; on start, notes of
//! processes that are gone are used to delete their temporary files.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// The folder of the notes: `<app data>/pending-writes`.
fn registry() -> Option<PathBuf> {
    super::app_data_dir().map(|d| d.join("pending-writes"))
}

/// A note of one temporary file, removed when dropped.
pub struct Note(Option<PathBuf>);

impl Drop for Note {
    fn drop(&mut self) {
        if let Some(path) = self.0.take() {
            let _ = fs::remove_file(path);
        }
    }
}

/// Notes `tmp` as being written by this process (best effort: a write goes on without a note).
pub fn note(tmp: &Path) -> Note {
    Note(registry().and_then(|dir| note_in(&dir, tmp)))
}

fn note_in(dir: &Path, tmp: &Path) -> Option<PathBuf> {
    fs::create_dir_all(dir).ok()?;
    let path = dir.join(format!(
        "{}-{:016x}.note",
        std::process::id(),
        rand::random::<u64>()
    ));
    fs::write(&path, tmp.as_os_str().as_encoded_bytes()).ok()?;
    Some(path)
}

/// Whether `name` is the name of a temporary file of an atomic write (`.NAME.tandem-<16 hex>.tmp`).
pub fn is_temp_name(name: &str) -> bool {
    let Some(rest) = name.strip_suffix(".tmp") else {
        return false;
    };
    let Some((_, hex)) = rest.rsplit_once(".tandem-") else {
        return false;
    };
    name.starts_with('.') && hex.len() == 16 && hex.bytes().all(|b| b.is_ascii_hexdigit())
}

fn alive(pid: u32) -> bool {
    let Some(pid) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    else {
        return false;
    };
    !matches!(
        rustix::process::test_kill_process(pid),
        Err(rustix::io::Errno::SRCH)
    )
}

/// Deletes the temporary files noted in `dir` by processes that are gone, and their notes; returns how many
/// temporary files were deleted. Only files named like temporary files are ever deleted.
pub fn clean_in(dir: &Path) -> usize {
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    let mut deleted = 0;
    for entry in entries.flatten() {
        let note = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = name.split('-').next().and_then(|p| p.parse::<u32>().ok()) else {
            continue;
        };
        if pid == std::process::id() || alive(pid) {
            continue;
        }
        if let Ok(bytes) = fs::read(&note) {
            let tmp = PathBuf::from(String::from_utf8_lossy(&bytes).into_owned());
            let temp_named = tmp
                .file_name()
                .is_some_and(|n| is_temp_name(&n.to_string_lossy()));
            if temp_named && fs::remove_file(&tmp).is_ok() {
                deleted += 1;
            }
        }
        let _ = fs::remove_file(&note);
    }
    deleted
}

/// Cleans the notes of gone processes once per process, in the background.
pub fn clean_stale_once() {
    static DONE: AtomicBool = AtomicBool::new(false);
    if DONE.swap(true, Ordering::SeqCst) {
        return;
    }
    let Some(dir) = registry() else {
        return;
    };
    let _ = std::thread::Builder::new()
        .name("tandem-temp-sweep".into())
        .spawn(move || clean_in(&dir));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temporary_files_of_gone_writers_are_deleted_and_nothing_else() {
        let work = tempfile::tempdir().expect("tempdir");
        let notes = work.path().join("notes");
        fs::create_dir_all(&notes).expect("mkdir");
        let mut child = std::process::Command::new("true").spawn().expect("spawn");
        let gone = child.id();
        child.wait().expect("wait");
        let stale = work.path().join(".secret.env.tandem-0123456789abcdef.tmp");
        let other = work.path().join("keep.txt");
        let live = work.path().join(".b.txt.tandem-fedcba9876543210.tmp");
        for path in [&stale, &other, &live] {
            fs::write(path, "x").expect("write");
        }
        fs::write(
            notes.join(format!("{gone}-1.note")),
            stale.to_string_lossy().as_bytes(),
        )
        .expect("note");
        fs::write(
            notes.join(format!("{gone}-2.note")),
            other.to_string_lossy().as_bytes(),
        )
        .expect("note");
        let ours = note_in(&notes, &live).expect("a note");

        assert_eq!(clean_in(&notes), 1);
        assert!(
            !stale.exists(),
            "the cut-off write's temporary file is gone"
        );
        assert!(
            other.exists(),
            "a file not named like a temporary file is kept"
        );
        assert!(
            live.exists() && ours.exists(),
            "a live writer's file and note stay"
        );
        assert_eq!(fs::read_dir(&notes).expect("dir").count(), 1);
    }

    #[test]
    fn temporary_names_are_recognised() {
        assert!(is_temp_name(".a.txt.tandem-0123456789abcdef.tmp"));
        assert!(!is_temp_name("a.txt.tandem-0123456789abcdef.tmp"));
        assert!(!is_temp_name(".a.txt.tandem-xyz.tmp"));
        assert!(!is_temp_name(".a.txt.tmp"));
    }
}

//! Modification times of the files of a folder walk, read relative to their folder: each walking thread keeps the
//! folder it last looked into open, so a file's time costs one `fstatat` on its name instead of resolving its whole
//! path again (a walk lists a folder's files one after another on the thread that read the folder).

use std::cell::RefCell;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use rustix::fs::{AtFlags, Mode, OFlags};

thread_local! {
    /// This thread's open folder: its path and its descriptor.
    static FOLDER: RefCell<Option<(PathBuf, OwnedFd)>> = const { RefCell::new(None) };
}

/// The modification time of the file at `path` (a final symbolic link is not followed).
pub fn mtime(path: &Path) -> std::io::Result<SystemTime> {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return std::fs::symlink_metadata(path)?.modified();
    };
    FOLDER.with_borrow_mut(|folder| {
        let fd = match folder {
            // Compared as bytes: `Path` equality parses both into components.
            Some((open, fd)) if open.as_os_str() == dir.as_os_str() => fd,
            _ => {
                let fd = rustix::fs::open(
                    dir,
                    OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
                    Mode::empty(),
                )?;
                &folder.insert((dir.to_path_buf(), fd)).1
            }
        };
        let stat = rustix::fs::statat(fd, name, AtFlags::SYMLINK_NOFOLLOW)?;
        // The fields' types differ between platforms.
        #[allow(clippy::unnecessary_cast)]
        let (secs, nanos) = (stat.st_mtime as i64, stat.st_mtime_nsec as u32);
        Ok(time_of(secs, nanos))
    })
}

/// The time `secs` seconds and `nanos` nanoseconds after the Unix epoch (`secs` may be negative).
fn time_of(secs: i64, nanos: u32) -> SystemTime {
    let nanos = Duration::from_nanos(u64::from(nanos));
    if secs >= 0 {
        SystemTime::UNIX_EPOCH + Duration::from_secs(secs.unsigned_abs()) + nanos
    } else {
        SystemTime::UNIX_EPOCH - Duration::from_secs(secs.unsigned_abs()) + nanos
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_metadata_of_each_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        for sub in ["a", "b"] {
            std::fs::create_dir(dir.path().join(sub)).expect("mkdir");
            for name in ["x.txt", "y.txt"] {
                let path = dir.path().join(sub).join(name);
                std::fs::write(&path, name).expect("write");
                let want = std::fs::metadata(&path)
                    .and_then(|m| m.modified())
                    .expect("mtime");
                assert_eq!(mtime(&path).expect("mtime"), want);
            }
        }
        let old = dir.path().join("a").join("x.txt");
        let file = std::fs::File::options()
            .write(true)
            .open(&old)
            .expect("open");
        let set = SystemTime::UNIX_EPOCH + Duration::new(1_000_000_000, 123_456_789);
        file.set_modified(set).expect("set the time");
        assert_eq!(mtime(&old).expect("mtime"), set);
        assert_eq!(
            time_of(-2, 500_000_000),
            SystemTime::UNIX_EPOCH - Duration::from_millis(1500)
        );
        assert!(mtime(&dir.path().join("a").join("gone.txt")).is_err());
    }
}

//! Atomic replacement of a file: write a temporary file in the same directory, fsync it, give it the original's
//! permissions (and owner, where allowed), rename it over the original and fsync the directory. A reader sees the
//! old file or the new one, never a half-written one; on any failure the original is untouched and the temporary
//! file is removed.

use std::fs::{self, File, OpenOptions, Permissions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Replaces (or creates) `target` with the concatenation of `parts`.
///
/// `like` is the metadata of the file being replaced: its permissions (and, on Unix, owner and group where the
/// process may set them) are given to the new file. `target` must not be a symlink; callers resolve links first so
/// that the link survives and its target changes.
pub fn write_atomic(target: &Path, parts: &[&[u8]], like: Option<&fs::Metadata>) -> io::Result<()> {
    replace_via_temp(target, |tmp| {
        write_then_rename(tmp, target, parts, like.map(|m| m.permissions()), like)
    })
}

/// Replaces (or creates) `target` with `parts`, readable and writable by its owner only (mode `0600` on Unix),
/// from the first byte written: for secrets.
pub fn write_atomic_private(target: &Path, parts: &[&[u8]]) -> io::Result<()> {
    replace_via_temp(target, |tmp| write_private_then_rename(tmp, target, parts))
}

/// Runs `write` (which writes a temporary file and renames it over `target`) on a fresh temporary path beside
/// `target`, removes the temporary file when it fails, and syncs the directory when it succeeds.
fn replace_via_temp(target: &Path, write: impl FnOnce(&Path) -> io::Result<()>) -> io::Result<()> {
    let dir = target
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or_else(|| Path::new("."));
    let tmp = temp_path(dir, target);
    // Noted until the write is over, so that a later start deletes the temporary file of a write cut off here.
    let _note = super::pending::note(&tmp);
    let result = write(&tmp);
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
        return result;
    }
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

fn write_private_then_rename(tmp: &Path, target: &Path, parts: &[&[u8]]) -> io::Result<()> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(tmp)?;
    for part in parts {
        file.write_all(part)?;
    }
    file.sync_all()?;
    drop(file);
    fs::rename(tmp, target)
}

fn temp_path(dir: &Path, target: &Path) -> PathBuf {
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "file".into());
    dir.join(format!(".{name}.tandem-{:016x}.tmp", rand::random::<u64>()))
}

fn write_then_rename(
    tmp: &Path,
    target: &Path,
    parts: &[&[u8]],
    permissions: Option<Permissions>,
    like: Option<&fs::Metadata>,
) -> io::Result<()> {
    let mut file = create_private(tmp, like)?;
    for part in parts {
        file.write_all(part)?;
    }
    if let Some(permissions) = permissions {
        file.set_permissions(permissions)?;
    }
    keep_owner(&file, like);
    file.sync_all()?;
    drop(file);
    fs::rename(tmp, target)
}

/// Creates the temporary file already with the mode the target has (a new file: the usual `0o666` less the umask),
/// so that a secret's new content is never readable by others, not even while it is being written.
#[cfg(unix)]
fn create_private(tmp: &Path, like: Option<&fs::Metadata>) -> io::Result<File> {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    let mode = like.map_or(0o666, |m| m.permissions().mode() & 0o777);
    OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(mode)
        .open(tmp)
}

#[cfg(not(unix))]
fn create_private(tmp: &Path, _like: Option<&fs::Metadata>) -> io::Result<File> {
    OpenOptions::new().write(true).create_new(true).open(tmp)
}

#[cfg(unix)]
fn keep_owner(file: &File, like: Option<&fs::Metadata>) {
    use std::os::unix::fs::MetadataExt;
    if let (Some(like), Ok(now)) = (like, file.metadata())
        && (like.uid() != now.uid() || like.gid() != now.gid())
    {
        // Only root (or the owner, for the group) may do this; a failure leaves the process's own owner.
        let _ = std::os::unix::fs::fchown(file, Some(like.uid()), Some(like.gid()));
    }
}

#[cfg(not(unix))]
fn keep_owner(_file: &File, _like: Option<&fs::Metadata>) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_and_keeps_permissions() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("a.txt");
        fs::write(&path, "old").expect("write");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&path, Permissions::from_mode(0o640)).expect("chmod");
        }
        let meta = fs::metadata(&path).expect("meta");
        write_atomic(&path, &[b"new ", b"text"], Some(&meta)).expect("write");
        assert_eq!(fs::read_to_string(&path).expect("read"), "new text");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(&path).expect("meta").permissions().mode();
            assert_eq!(mode & 0o777, 0o640);
        }
        let leftovers = fs::read_dir(dir.path()).expect("ls").count();
        assert_eq!(leftovers, 1, "no temporary file is left behind");
    }

    #[test]
    fn a_failed_write_leaves_nothing() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("missing-dir").join("a.txt");
        assert!(write_atomic(&path, &[b"x"], None).is_err());
        assert!(!path.exists());
    }

    #[cfg(unix)]
    #[test]
    fn the_temporary_file_of_a_private_file_is_private_from_its_creation() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("tempdir");
        let secret = dir.path().join("secret.env");
        fs::write(&secret, "old").expect("write");
        fs::set_permissions(&secret, Permissions::from_mode(0o600)).expect("chmod");
        let meta = fs::metadata(&secret).expect("meta");

        let tmp = temp_path(dir.path(), &secret);
        let file = create_private(&tmp, Some(&meta)).expect("create");

        let mode = file.metadata().expect("meta").permissions().mode();
        assert_eq!(
            mode & 0o077,
            0,
            "readable by others while written: {mode:o}"
        );
    }
}

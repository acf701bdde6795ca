//! `tandem [FOLDER]` hands over to the desktop app installed beside it, and says clearly when it is missing.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_tandem");

/// A folder holding a copy of the `tandem` binary (a hard link when the file system allows), as an installation.
fn install_dir() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("tempdir");
    let bin = dir.path().join("tandem");
    if std::fs::hard_link(BIN, &bin).is_err() {
        std::fs::copy(BIN, &bin).expect("copy the binary");
    }
    (dir, bin)
}

/// A stand-in app: `tandem-app` as a link to `/bin/sh`, so the "folder" it is given is a script it runs, and without
/// one it runs what comes on stdin. (A script written here and executed at once could hit "text file busy" while
/// other tests start processes.)
fn fake_app(dir: &Path) {
    std::os::unix::fs::symlink("/bin/sh", dir.join("tandem-app")).expect("link the fake app");
}

#[test]
fn a_folder_without_headless_flags_starts_the_app_beside_the_binary() {
    let (dir, bin) = install_dir();
    fake_app(dir.path());
    let project = tempfile::tempdir().expect("project");
    std::fs::write(
        project.path().join("my folder"),
        "printf '%s\\n' \"$(pwd -P)\" \"$0\" > args.txt\nexit 7\n",
    )
    .expect("write");

    let status = Command::new(&bin)
        .arg("my folder")
        .current_dir(project.path())
        .stdin(Stdio::null())
        .status()
        .expect("tandem runs");

    assert_eq!(status.code(), Some(7), "the app's exit code comes back");
    let seen = std::fs::read_to_string(project.path().join("args.txt")).expect("the app ran");
    let lines: Vec<&str> = seen.lines().collect();
    let cwd = std::fs::canonicalize(project.path()).expect("canonical");
    assert_eq!(lines, [cwd.to_str().expect("utf-8"), "my folder"]);

    let mut child = Command::new(&bin)
        .current_dir(project.path())
        .stdin(Stdio::piped())
        .spawn()
        .expect("tandem runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"echo \"$#\" > count.txt\nexit 5\n")
        .expect("write");
    assert_eq!(child.wait().expect("wait").code(), Some(5));
    let count = std::fs::read_to_string(project.path().join("count.txt")).expect("the app ran");
    assert_eq!(count.trim(), "0", "no folder, no argument");
}

#[test]
fn without_the_app_the_window_fails_clearly_and_headless_commands_still_work() {
    let (dir, bin) = install_dir();

    let out = Command::new(&bin)
        .arg(dir.path())
        .stdin(Stdio::null())
        .output()
        .expect("tandem runs");

    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("desktop app is not installed") && stderr.contains("tandem-app"),
        "{stderr}"
    );
    let version = Command::new(&bin)
        .arg("--version")
        .output()
        .expect("tandem runs");
    assert!(version.status.success());
    assert_eq!(
        String::from_utf8_lossy(&version.stdout).trim(),
        format!("tandem {}", env!("CARGO_PKG_VERSION"))
    );
}

//! `tandem [PATH]` without headless flags: hands over to the desktop app, `tandem-app`, installed beside this
//! command (the command line itself never loads the GUI's libraries).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The file name of the desktop app's binary.
pub const APP_BINARY: &str = "tandem-app";

/// Where the desktop app is expected: beside this executable (symbolic links to it resolved).
fn app_path() -> Result<PathBuf, String> {
    let exe = std::env::current_exe()
        .map_err(|e| format!("cannot tell where this command is installed: {e}"))?;
    let dir = exe
        .parent()
        .ok_or_else(|| format!("{} has no parent folder", exe.display()))?;
    Ok(dir.join(format!("{APP_BINARY}{}", std::env::consts::EXE_SUFFIX)))
}

/// Starts the desktop app on `folder` (or on none) in place of this process; returns an exit code only when it
/// could not be started (or, where a process cannot be replaced, when the app exits).
pub fn open(folder: Option<&Path>) -> i32 {
    let app = match app_path() {
        Ok(app) => app,
        Err(e) => {
            eprintln!("tandem: {e}");
            return 1;
        }
    };
    if !app.is_file() {
        eprintln!(
            "tandem: the desktop app is not installed: {} is missing (build it with `cargo build -p tandem`, or run \
             scripts/run); the headless commands (-p, tool, permissions, rewind) work without it",
            app.display()
        );
        return 1;
    }
    let mut command = Command::new(&app);
    command.args(folder);
    run(command, &app)
}

#[cfg(unix)]
fn run(mut command: Command, app: &Path) -> i32 {
    use std::os::unix::process::CommandExt;
    let error = command.exec();
    eprintln!("tandem: cannot start {}: {error}", app.display());
    1
}

#[cfg(not(unix))]
fn run(mut command: Command, app: &Path) -> i32 {
    match command.status() {
        Ok(status) => status.code().unwrap_or(1),
        Err(error) => {
            eprintln!("tandem: cannot start {}: {error}", app.display());
            1
        }
    }
}

//! One window for all launches: a second `tandem-app FOLDER` (from a desktop entry or the `tandem` command) hands
//! its folder (or its remote folder, `ssh://…`) to the running app, which opens it and comes to the front, and exits. Needs the desktop's session
//! bus; without one (a headless test display) every launch is its own app.

use std::path::{Path, PathBuf};

use tauri::{AppHandle, Emitter, Manager, Runtime};

use crate::menu::{OPEN_FOLDER_EVENT, OPEN_REMOTE_EVENT, OpenFolder, OpenRemote};

/// Whether a launch's argument names a remote folder (`ssh://…`) rather than a folder of this machine.
pub fn is_remote(arg: &str) -> bool {
    arg.starts_with("ssh://")
}

/// Whether launches can find each other (the single-instance door runs over the session bus).
pub fn available() -> bool {
    std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some()
        && std::env::var_os("TANDEM_MULTI_INSTANCE").is_none()
}

/// Handles a later launch's arguments in the running app.
pub fn second_launch<R: Runtime>(app: &AppHandle<R>, argv: Vec<String>, cwd: String) {
    if let Some(window) = app.get_webview_window("main") {
        let _ = window.unminimize();
        let _ = window.show();
        let _ = window.set_focus();
    }
    if let Some(url) = argv.iter().skip(1).find(|a| is_remote(a)) {
        let _ = app.emit(
            OPEN_REMOTE_EVENT,
            OpenRemote {
                url: Some(url.clone()),
                folder: Some(cwd),
            },
        );
    } else if let Some(folder) = folder_argument(&argv, Path::new(&cwd)) {
        let _ = app.emit(
            OPEN_FOLDER_EVENT,
            OpenFolder {
                path: folder.display().to_string(),
            },
        );
    }
}

/// The folder a launch's arguments name (the first one that is not an option), made absolute against the launch's
/// working directory.
fn folder_argument(argv: &[String], cwd: &Path) -> Option<PathBuf> {
    let arg = argv.iter().skip(1).find(|a| !a.starts_with('-'))?;
    let path = PathBuf::from(arg);
    Some(if path.is_absolute() {
        path
    } else {
        cwd.join(path)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_folder_is_the_first_non_option_made_absolute() {
        let argv = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let cwd = Path::new("/home/me");
        assert_eq!(
            folder_argument(&argv(&["tandem-app", "proj"]), cwd),
            Some(PathBuf::from("/home/me/proj"))
        );
        assert_eq!(
            folder_argument(&argv(&["tandem-app", "--verbose", "/srv/x"]), cwd),
            Some(PathBuf::from("/srv/x"))
        );
        assert_eq!(folder_argument(&argv(&["tandem-app"]), cwd), None);
    }

    #[test]
    fn an_ssh_url_names_a_remote_folder_and_a_path_does_not() {
        assert!(is_remote("ssh://ann@box:2222/srv/app"));
        assert!(!is_remote("/srv/app"));
        assert!(!is_remote("ssh-keys"));
        assert!(!is_remote("sftp://box/p"));
    }
}

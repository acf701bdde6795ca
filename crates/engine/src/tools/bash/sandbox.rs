//! The optional sandbox: with bubblewrap (`bwrap`) installed and `TANDEM_BASH_SANDBOX=1` set, commands run with the
//! whole filesystem read-only except the working directories (and a private /tmp), and without network.

use std::path::{Path, PathBuf};

/// The environment variable that turns the sandbox on (`1` or `true`).
pub const SANDBOX_ENV: &str = "TANDEM_BASH_SANDBOX";

/// A bubblewrap sandbox.
#[derive(Debug, Clone)]
pub struct Sandbox {
    bwrap: PathBuf,
}

impl Sandbox {
    /// The sandbox when the setting enables it and `bwrap` is on the `PATH`.
    pub fn from_env() -> Option<Self> {
        let on = std::env::var(SANDBOX_ENV)
            .map(|v| matches!(v.trim(), "1" | "true" | "yes"))
            .unwrap_or(false);
        if on { Self::find() } else { None }
    }

    /// The sandbox if `bwrap` is on the `PATH`.
    pub fn find() -> Option<Self> {
        let path = std::env::var_os("PATH")?;
        std::env::split_paths(&path)
            .map(|dir| dir.join("bwrap"))
            .find(|p| p.is_file())
            .map(|bwrap| Self { bwrap })
    }

    /// The program and arguments that run `bash -c script` in `cwd` inside the sandbox, with `writable` (the
    /// working directories and the tool's own files) writable.
    pub fn command(&self, script: &str, cwd: &Path, writable: &[PathBuf]) -> (String, Vec<String>) {
        let mut args: Vec<String> = [
            "--ro-bind",
            "/",
            "/",
            "--dev",
            "/dev",
            "--proc",
            "/proc",
            "--tmpfs",
            "/tmp",
            "--unshare-net",
            "--die-with-parent",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        for dir in writable {
            let dir = dir.to_string_lossy().to_string();
            args.extend(["--bind".to_string(), dir.clone(), dir]);
        }
        args.extend([
            "--chdir".to_string(),
            cwd.to_string_lossy().to_string(),
            "bash".to_string(),
            "-c".to_string(),
            script.to_string(),
        ]);
        (self.bwrap.to_string_lossy().to_string(), args)
    }
}

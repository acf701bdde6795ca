//! The bubblewrap sandbox a command runs in: the whole filesystem read-only except the working directories, the
//! tool's own folder, `sandbox.filesystem.allowWrite` and a private /tmp and /run; its own process and network
//! namespaces. With
//! `sandbox.network.allowedDomains` traffic can leave only through Tandem's proxy, reached over a Unix socket bound
//! into the sandbox and bridged to a loopback port inside it by the bridge program.

use std::path::{Path, PathBuf};

use super::bridge::BridgeProgram;

/// A bubblewrap sandbox.
#[derive(Debug, Clone)]
pub struct Sandbox {
    bwrap: PathBuf,
}

/// The way out of the sandbox for one command: the proxy's socket and the program that bridges it inside.
#[derive(Debug, Clone)]
pub struct NetworkBridge {
    pub socket: PathBuf,
    pub program: BridgeProgram,
}

impl Sandbox {
    /// The sandbox run by the `bwrap` at `bwrap`.
    pub fn at(bwrap: PathBuf) -> Self {
        Self { bwrap }
    }

    /// The `bwrap` program this sandbox runs.
    pub fn bwrap(&self) -> &Path {
        &self.bwrap
    }

    /// The sandbox if `bwrap` is on the `PATH`.
    pub fn find() -> Option<Self> {
        crate::settings::find_bwrap().map(Self::at)
    }

    /// The program and arguments that run `bash -c script` in `cwd` inside the sandbox, with `writable` writable
    /// and, through `network`, the proxy reachable (without it there is no network at all).
    pub fn command(
        &self,
        script: &str,
        cwd: &Path,
        writable: &[PathBuf],
        network: Option<&NetworkBridge>,
    ) -> (String, Vec<String>) {
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
            // Its own process namespace: /proc shows only the sandbox's processes, so no host process's
            // /proc/PID/root (the writable host filesystem) is reachable.
            "--unshare-pid",
            "--die-with-parent",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        // /run holds the sockets of host daemons (docker, the session bus, systemd), which a read-only mount
        // would not stop a program from talking to.
        if Path::new("/run").is_dir() {
            args.extend(["--tmpfs".to_string(), "/run".to_string()]);
        }
        for dir in writable.iter().filter(|d| d.exists()) {
            let dir = dir.to_string_lossy().to_string();
            args.extend(["--bind".to_string(), dir.clone(), dir]);
        }
        if let Some(net) = network {
            // The socket's folder may be under /tmp, which the sandbox replaces: bind the socket itself, and the
            // bridge program (read-only) in case it lives there too (a build under /tmp).
            let socket = net.socket.to_string_lossy().to_string();
            args.extend(["--bind".to_string(), socket.clone(), socket]);
            let program = net.program.program.to_string_lossy().to_string();
            args.extend(["--ro-bind".to_string(), program.clone(), program]);
        }
        args.extend(["--chdir".to_string(), cwd.to_string_lossy().to_string()]);
        if let Some(net) = network {
            args.push("--".to_string());
            args.extend(net.program.command(&net.socket));
            args.push("--".to_string());
        }
        args.extend(["bash".to_string(), "-c".to_string(), script.to_string()]);
        (self.bwrap.to_string_lossy().to_string(), args)
    }
}

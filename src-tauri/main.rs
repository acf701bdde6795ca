//! The `tandem-app` binary: the desktop window, on a folder when one is given. The `tandem` command starts it.

#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

use std::path::PathBuf;

use clap::Parser;

/// Tandem's window: you and a coding agent, working on a project folder together.
#[derive(Debug, Parser)]
#[command(name = "tandem-app", version)]
struct Args {
    /// The folder to open, or a folder on another machine: `ssh://[user@]host[:port]/abs/path`.
    folder: Option<PathBuf>,
}

fn main() {
    // Inside the shell sandbox, the app started with `__sandbox-bridge …` carries the command's traffic to the proxy.
    if let Some(code) = tandem_engine::sandbox::bridge_if_asked() {
        std::process::exit(code);
    }
    let args = Args::parse();
    let log = tandem_app::logging::init();
    tracing::info!(
        version = env!("CARGO_PKG_VERSION"),
        folder = ?args.folder,
        log = ?log,
        "starting"
    );
    // `ssh://…` names a remote folder (docs/remote.md): Tandem there runs the session, this window shows it.
    let (folder, remote) = match args.folder {
        Some(folder) if tandem_app::instance::is_remote(&folder.to_string_lossy()) => {
            (None, Some(folder.to_string_lossy().into_owned()))
        }
        folder => (folder, None),
    };
    if let Err(e) = tandem_app::run_app(folder, remote) {
        tracing::error!("{e:#}");
        eprintln!("tandem: {e:#}");
        std::process::exit(1);
    }
}

//! The `tandem` binary: the desktop app, or with arguments a headless command line.

#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

fn main() {
    std::process::exit(tandem_app::cli::main());
}

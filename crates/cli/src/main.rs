//! The `tandem` command: headless commands, or the desktop app on a folder.

fn main() {
    std::process::exit(tandem_cli::main());
}

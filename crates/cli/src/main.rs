//! The `tandem` command: headless commands, or the desktop app on a folder.

fn main() {
    // Inside the shell sandbox, `tandem __sandbox-bridge …` carries the command's traffic to the proxy.
    if let Some(code) = tandem_engine::sandbox::bridge_if_asked() {
        std::process::exit(code);
    }
    std::process::exit(tandem_cli::main());
}

//! The `tandem` command: headless commands, or the desktop app on a folder.

fn main() {
    // Inside the shell sandbox, `tandem __sandbox-bridge …` carries the command's traffic to the proxy.
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some(tandem_engine::tools::bash::BRIDGE_ARG) {
        std::process::exit(tandem_engine::tools::bash::bridge_main(&args[1..]));
    }
    std::process::exit(tandem_cli::main());
}

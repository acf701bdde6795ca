//! `tandem-sandbox-bridge`: runs inside the shell sandbox to carry the command's traffic to Tandem's proxy (see
//! `tandem_engine::tools::bash::bridge_main`).

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(tandem_engine::tools::bash::bridge_main(&args));
}

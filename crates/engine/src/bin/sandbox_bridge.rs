//! `tandem-sandbox-bridge`: runs inside the shell sandbox to carry the command's traffic to Tandem's proxy (see
//! `tandem_engine::sandbox::bridge_main`).

fn main() {
    std::process::exit(tandem_engine::sandbox::bridge_main_os(
        std::env::args_os().skip(1),
    ));
}

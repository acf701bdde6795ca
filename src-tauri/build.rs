//! Build script: lets tauri-build generate the app context (reads tauri.conf.json at the root).

fn main() {
    tauri_build::build()
}

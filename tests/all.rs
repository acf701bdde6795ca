//! Tests of the app package: IPC round trips on Tauri's mock runtime, the app's log file, and the end-to-end suite
//! in a real webview (ignored by default; run with `--ignored` under Xvfb). The command line has its own tests in
//! `crates/cli`.

mod suite;

//! Tests of the app package: IPC round trips on Tauri's mock runtime, the headless command line, and the
//! end-to-end suite in a real webview (ignored by default; run with `--ignored` under Xvfb).

mod suite;

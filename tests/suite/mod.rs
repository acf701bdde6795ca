//! Test modules of the app's suite.

mod e2e;
mod ipc;
mod logging;

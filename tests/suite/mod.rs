//! Test modules of the app's suite.

mod cli;
mod e2e;
mod generated_types;
mod ipc;

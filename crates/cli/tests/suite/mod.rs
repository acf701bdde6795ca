//! Test modules of the command line's suite.

mod commands;
mod concurrent_runs;
mod permissions;
mod window;

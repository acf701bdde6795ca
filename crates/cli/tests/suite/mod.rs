//! Test modules of the command line's suite.

mod commands;
mod concurrent_runs;
mod hooks;
mod mcp;
mod permissions;
mod prompt_commands;
mod window;

//! Test modules of the command line's suite.

mod acp;
mod commands;
mod concurrent_edits;
mod concurrent_runs;
mod hooks;
mod images;
mod killed_runs;
mod large_files;
mod mcp;
mod permissions;
mod prompt_commands;
mod rewind_lock;
mod sessions;
mod signals;
mod structured_output;
mod unreadable;
mod usage;
mod window;

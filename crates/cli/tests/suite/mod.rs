//! Test modules of the command line's suite.

mod commands;
mod mcp;
mod permissions;
mod window;

//! Test modules of the command line's suite.

mod commands;
mod permissions;
mod window;

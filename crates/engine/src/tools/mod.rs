//! The built-in tools, one module each.

pub mod read;

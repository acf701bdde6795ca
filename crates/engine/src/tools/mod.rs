//! The built-in tools, one module (or folder) each, and what the file tools share.

pub mod agent;
pub mod bash;
pub mod edit;
pub mod file_io;
pub mod glob;
pub mod grep;
pub mod notebook_edit;
pub mod read;
pub mod write;

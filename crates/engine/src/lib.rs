//! Tandem's engine: everything that is not GUI. Tools and their registry, the permission engine, the tool-call
//! pipeline, model clients, the query loop and sessions. The desktop app and the command line are thin shells
//! around [`session::Session`].

pub mod approver;
pub mod checkpoint;
pub mod events;
pub mod exec;
pub mod frontmatter;
pub mod fsutil;
pub mod hooks;
pub mod hosted;
pub mod image_fit;
pub mod lsp;
pub mod mcp;
pub mod model;
pub mod permission;
pub mod plugins;
pub mod process_group;
pub mod query;
pub mod registry;
pub mod sandbox;
pub mod session;
pub mod settings;
pub mod shell;
pub mod ssh;
pub mod store;
pub mod text;
pub mod tool;
pub mod tools;
pub mod transcript;

#[cfg(feature = "test-support")]
pub mod testing;

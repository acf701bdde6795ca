//! Language servers (LSP) for a session: the servers a project's `.lsp.json` configures (in the command-line
//! agent's `lspServers` format), each started on first use of a file it handles, restarted with backoff after a
//! crash and killed with the session; JSON-RPC over the server's stdin and stdout with `lsp-types` messages; the
//! diagnostics a file change introduced. Off unless `ENABLE_LSP_TOOL` is set (docs/lsp.md).

mod codec;
mod config;
mod connection;
mod diagnostics;
mod error;
mod manager;
mod server;
mod uri;

pub use config::{ENABLE_ENV, ServerConfig, parse_config, project_config, switched_on};
pub use diagnostics::{new_errors, render_errors};
pub use error::LspError;
pub use manager::{FileHandle, LspManager, LspOptions};
pub use uri::{path_of, uri_of};

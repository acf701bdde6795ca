//! The command line's log: the engine's warnings on stderr, more with `TANDEM_LOG` (e.g. `TANDEM_LOG=debug`).
//! Colours only when stderr is a terminal: a log sent to a file or a pipe is plain text.

use std::io::IsTerminal;

use tracing_subscriber::EnvFilter;

/// The filter used when `TANDEM_LOG` is unset or invalid: warnings, except the ACP SDK's notes on error answers it
/// sends (a refused write of a hosted agent is an answer, and the session tells of it).
const DEFAULT_FILTER: &str = "warn,agent_client_protocol::jsonrpc::outgoing_actor=error";

/// Sends the log to stderr at the level `TANDEM_LOG` names (an `EnvFilter` directive), warnings by default.
pub fn init() {
    let filter =
        EnvFilter::try_from_env("TANDEM_LOG").unwrap_or_else(|_| EnvFilter::new(DEFAULT_FILTER));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stderr().is_terminal())
        .with_writer(std::io::stderr)
        .try_init();
}

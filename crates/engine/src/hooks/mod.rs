//! User hooks around tool calls and other events (spec/hooks.md): configuration, running real child processes
//! with JSON on stdin and stdout, exit codes and timeouts, and combining the answers of several hooks.

mod combine;
mod config;
mod gate;
mod run;

pub use combine::{HookDecision, HookVerdict, combine};
pub use config::{DEFAULT_TIMEOUT_SECS, EVENTS, HookCommand, HookMatcher, HookSet, parse_hooks};
pub use gate::{
    absolute_paths, append_text, feedback_for_model, notify, resolve, run_event, tool_fields,
};
pub use run::{HookInput, HookRun, run_hooks};

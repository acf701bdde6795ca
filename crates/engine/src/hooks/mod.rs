//! User hooks around tool calls and other events (docs/hooks.md): configuration, running real child processes
//! with JSON on stdin and stdout, exit codes and timeouts, and combining the answers of several hooks.

mod combine;
pub mod output;
pub mod payload;
mod run;
mod tester;
mod transcript_path;

pub use crate::settings::{
    DEFAULT_TIMEOUT_SECS, HookCommand, HookEvent, HookMatcher, HookSet, parse_hooks,
};
pub use combine::{HookDecision, HookVerdict, MAX_HOOK_TEXT, combine, trace_step};
pub use output::{HookOutput, output_schema};
pub use payload::{EventInput, HookPayload, input_schema};
pub use run::{HookInput, HookRun, run_hooks};
pub use tester::{hook_listing, sample_input, test_hook};
pub use transcript_path::{agent_transcript_path, given_path, transcript_path};

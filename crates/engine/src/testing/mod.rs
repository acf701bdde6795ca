//! Test support (feature `test-support`): the fake model server, scripted approvers, temporary workspaces and
//! projects, and a builder of tool runtimes. Each of them first moves the process's app data folder to a temporary
//! one of its own ([`isolate_app_data`]), so that tests leave the person's data alone.

mod app_data;
mod approvers;
mod chat_completions;
mod chat_writer;
mod deferred_tools;
mod fake_server;
mod fake_tools;
mod headless_opener;
mod project;
mod released;
mod runtime;
mod schema_defaults;
mod script;
mod server_core;
mod sse_writer;
mod strict_tools;
mod workspace;

pub use crate::events::RecordingSink;
pub use app_data::isolate_app_data;
pub use approvers::{FnApprover, FormReply, ScriptedApprover};
pub use chat_completions::validate_chat_body;
pub use deferred_tools::{SyntheticTool, synthetic_tools};
pub use fake_server::FakeServer;
pub use fake_tools::{CallLog, FakeInput, FakeTool, LogEntry};
pub use headless_opener::HeadlessOpener;
pub use project::{Project, RuleSpec, check, check_bash};
pub use released::wait_released;
pub use runtime::{CallResult, TestRuntime, call};
pub use schema_defaults::SchemaDefaults;
pub use script::{ChatQuirks, Script, ScriptBlock, ScriptedReply, ScriptedTurn};
pub use server_core::{Mark, RecordedRequest};
pub use workspace::Workspace;

//! Test support (feature `test-support`): the fake model server, scripted approvers and temporary workspaces.

mod approvers;
mod chat_completions;
mod chat_writer;
mod fake_server;
mod fake_tools;
mod script;
mod server_core;
mod sse_writer;

pub use approvers::ScriptedApprover;
pub use chat_completions::validate_chat_body;
pub use fake_server::FakeServer;
pub use fake_tools::{CallLog, FakeInput, FakeTool, LogEntry};
pub use script::{ChatQuirks, Script, ScriptBlock, ScriptedReply, ScriptedTurn};
pub use server_core::{Mark, RecordedRequest};

//! Test support (feature `test-support`): the fake model server, scripted approvers and temporary workspaces.

mod approvers;
mod fake_server;
mod fake_tools;
mod script;
mod sse_writer;

pub use approvers::ScriptedApprover;
pub use fake_server::{FakeServer, RecordedRequest};
pub use fake_tools::{CallLog, FakeInput, FakeTool, LogEntry};
pub use script::{Script, ScriptBlock, ScriptedReply, ScriptedTurn};

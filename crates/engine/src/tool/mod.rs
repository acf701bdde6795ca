//! The tool contract: the typed [`Tool`] trait every tool implements, its fail-closed defaults, and the
//! type-erased [`DynTool`] / [`PreparedCall`] forms the registry and the executor work with.

mod completion;
mod context;
pub mod conversation;
pub mod deferred;
pub(crate) mod dynamic;
mod inner_calls;
mod language_servers;
pub mod names;
mod output;
mod person;
mod sandbox;
pub mod snip_range;
mod sub_agent;
mod subject;
mod team;

pub use completion::{CompletionError, CompletionRequest, ModelCompleter};
pub use context::{
    FileHistory, FileReadState, FileStateStore, FileTouchListener, HistoryError, ProgressSink,
    ReadDenied, ToolContext,
};
pub use conversation::ConversationLedger;
pub use deferred::{DeferredTools, ToolSearchMode};
pub use dynamic::{DynTool, PreparedCall, erase, erase_with_schema, schema_errors};
pub use inner_calls::{InnerCallResult, InnerCalls};
pub use language_servers::LanguageServers;
pub use output::{ContextChange, ToolError, ToolOutput};
pub use person::{PersonDoor, PersonError};
pub use sandbox::{Placement, SandboxConfig, Unsandboxed, ViolationSink};
pub use sub_agent::{
    ForkStart, RemoteReport, SubAgentError, SubAgentReport, SubAgentRequest, SubAgentRunner,
    WorktreeReport,
};
pub use subject::PermissionSubject;
pub use team::{
    BROADCAST, LEAD_NAME, Mailbox, MemberSpec, TeamDoor, TeamError, TeamSeat, TeamSpec,
};

use std::future::Future;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use tandem_protocol::{FileDiff, RenderHints, ToolKind};

/// What happens to a running call when the user interrupts the turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InterruptBehavior {
    /// The call is cancelled (its cancellation token fires) and gets a "cancelled" result.
    Cancel,
    /// The call is left to finish; the turn ends after it.
    Block,
}

/// A tool the model can call.
///
/// `Input` is a serde struct deriving `JsonSchema`; its doc comments are the model-facing parameter descriptions and
/// its schema is what the model's input is validated against before anything else happens.
///
/// Defaults are fail-closed: a tool is assumed not concurrency-safe, not read-only and not destructive, is enabled,
/// and leaves the permission question to the rules (its [`PermissionSubject`] is the bare tool).
///
/// Contract of [`Tool::call`]: it returns `Ok` with the result for the model, or `Err(ToolError::ToModel)` for a
/// failure the model should see as an error result. It must watch `ctx.cancel`: when the token fires it stops as soon
/// as it safely can and returns `Err(ToolError::Cancelled)`; it must never leave a file half-written.
pub trait Tool: Send + Sync + 'static {
    /// The typed input.
    type Input: DeserializeOwned + JsonSchema + Send + Sync + 'static;

    /// The unique name the model calls the tool by.
    fn name(&self) -> &'static str;

    /// Older names that still resolve to this tool.
    fn aliases(&self) -> &'static [&'static str] {
        &[]
    }

    /// The model-facing description of the tool.
    fn description(&self) -> String;

    /// Results longer than this are persisted to disk and the model gets a preview.
    fn max_result_size_chars(&self) -> usize {
        100_000
    }

    /// Whether the tool is offered at all.
    fn is_enabled(&self) -> bool {
        true
    }

    /// Whether this call may run at the same time as other concurrency-safe calls.
    fn is_concurrency_safe(&self, _input: &Self::Input) -> bool {
        false
    }

    /// Whether this call only reads.
    fn is_read_only(&self, _input: &Self::Input) -> bool {
        false
    }

    /// Whether this call does something that cannot be undone (delete, overwrite).
    fn is_destructive(&self, _input: &Self::Input) -> bool {
        false
    }

    /// What a user interrupt does to a running call.
    fn interrupt_behavior(&self) -> InterruptBehavior {
        InterruptBehavior::Block
    }

    /// Whether a failure of this tool aborts the calls running beside it (shell commands: a failed step makes its
    /// parallel siblings pointless). The turn itself goes on.
    fn aborts_siblings_on_error(&self) -> bool {
        false
    }

    /// Whether the call itself is a question to the person (a plan to approve, questions to answer) that it puts
    /// through its [`ToolContext::person`] door in every mode. When the decision is to ask, the generic permission
    /// dialog is skipped (the call's own dialog is the question); deny rules and the modes where nobody may be
    /// asked (dontAsk, background agents) still refuse it.
    fn asks_person_itself(&self) -> bool {
        false
    }

    /// How the transcript draws the call.
    fn render_hints(&self, _input: &Self::Input, _ctx: &ToolContext) -> RenderHints {
        RenderHints {
            kind: ToolKind::Other,
            title: self.name().to_string(),
            collapsible: false,
        }
    }

    /// What the permission engine must judge for this call (paths read or written, a command, a URL...).
    fn permission_subject(&self, _input: &Self::Input, _ctx: &ToolContext) -> PermissionSubject {
        PermissionSubject::Tool
    }

    /// For a call that changes a file: the file before and after, shown in the approval dialog. Computed without
    /// changing anything; `None` when there is nothing to show or the change cannot be computed (the call itself
    /// will then report the problem).
    fn approval_preview(&self, _input: &Self::Input, _ctx: &ToolContext) -> Option<FileDiff> {
        None
    }

    /// What auto mode's classifier is shown of the call, when the tool has a better form than its input with long
    /// texts cut (the default, `None`): what the call does, without what does not change the judgement.
    fn classifier_input(&self, _input: &Self::Input) -> Option<serde_json::Value> {
        None
    }

    /// What the call would destroy, one sentence each, shown as warnings in the approval dialog.
    fn approval_warnings(&self, _input: &Self::Input, _ctx: &ToolContext) -> Vec<String> {
        Vec::new()
    }

    /// For a call that edits several files (a `sed -i` command): each file before and after, computed without
    /// changing anything; empty when the change cannot be computed safely.
    fn approval_previews(&self, _input: &Self::Input, _ctx: &ToolContext) -> Vec<FileDiff> {
        Vec::new()
    }

    /// Fills derived fields into the input that hooks and the UI observe (e.g. a file path made absolute).
    /// Works on the JSON so that what hooks see is what the tool gets.
    fn backfill_observable_input(&self, _input: &mut serde_json::Value, _ctx: &ToolContext) {}

    /// The JSON schema of the data this tool's results carry ([`ToolOutput::structured`]), which PostToolUse hooks
    /// receive as `tool_response` in the shapes hooks written for Claude Code read (`filePath`, `stdout`, ...).
    /// `None` (the default): results carry no data and hooks receive the result's text.
    fn output_schema(&self) -> Option<serde_json::Value> {
        None
    }

    /// Whether the tool asks for `strict: true` on its definition: where the model supports it, the model's input
    /// is then generated to fit the schema. Only tools whose schema lies in the strict subset ask (see
    /// `crate::model::strict`); a model that does not support it gets the plain definition.
    fn strict(&self) -> bool {
        false
    }

    /// Business validation after the schema check; an `Err` goes to the model as an error result and nothing runs.
    fn validate_input(
        &self,
        _input: &Self::Input,
        _ctx: &ToolContext,
    ) -> impl Future<Output = Result<(), String>> + Send {
        async { Ok(()) }
    }

    /// Runs the call.
    fn call(
        &self,
        input: &Self::Input,
        ctx: &ToolContext,
    ) -> impl Future<Output = Result<ToolOutput, ToolError>> + Send;
}

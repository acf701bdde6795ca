//! The door from a tool that runs other tools (REPL) to the tool-call pipeline: the tool asks its session to run
//! one call through [`InnerCalls`], implemented above the tool layer (by the executor), never by importing it.

use futures::future::BoxFuture;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

/// How one inner call ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InnerCallResult {
    /// The call succeeded (it was allowed, ran and returned a result).
    pub ok: bool,
    /// The result's text: the tool's output, or why it failed, was refused or was stopped.
    pub text: String,
}

/// Runs tool calls made from inside another tool's call.
///
/// Contract: [`InnerCalls::call`] runs the tool `name` (one of the session's tools, offered to the model or kept
/// for inner calls only, as the primitives the REPL mode hides) with `input` through the whole pipeline a direct call of the model
/// goes through — schema, validation, the permission check (asking the person where it asks), hooks, the file
/// history, the window's events under the call id `id` — and resolves with its result. It never fails on its own:
/// every refusal, invalid input or tool error comes back as `ok: false` with the message the model would have seen.
/// When `cancel` fires the call is stopped as a direct call would be (it resolves with `ok: false` at once, its
/// question to the person withdrawn); nothing keeps running after it resolved.
pub trait InnerCalls: Send + Sync + std::fmt::Debug {
    fn call(
        &self,
        name: String,
        id: String,
        input: Value,
        cancel: CancellationToken,
    ) -> BoxFuture<'_, InnerCallResult>;
}

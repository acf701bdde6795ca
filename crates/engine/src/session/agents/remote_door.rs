//! The door from a session to sub-agents on other machines ([`RemoteAgents`], implemented by the hosted layer and
//! given to the session's builder), and where the session's door leads ([`RemoteDoor`]).

use std::sync::Arc;

use futures::future::BoxFuture;
use tokio_util::sync::CancellationToken;

use crate::exec::ToolRuntime;

/// Starts sub-agents on another machine.
///
/// Contract: [`RemoteAgents::open`] starts the agent at `url` and opens its session there; its updates become
/// events on `runtime.events` and its permission questions are answered through `runtime` (its permission context,
/// hooks and approver), never by asking anyone else. `Err` is the message for the model and the person, naming the
/// machine (unreachable, no Tandem there, a URL that cannot be read); nothing is left running. Dropping the future
/// before it resolves ends whatever it started.
pub trait RemoteAgents: Send + Sync {
    fn open(
        &self,
        url: &str,
        runtime: ToolRuntime,
    ) -> BoxFuture<'_, Result<Box<dyn RemoteConversation>, String>>;
}

/// One open remote agent.
///
/// Contract: [`RemoteConversation::turn`] sends one prompt and resolves with the agent's final text once it ends.
/// When `cancel` fires the far side is told (`session/cancel`) and the turn resolves soon after, whether or not it
/// answers (`Err` then, or its answer). `Err` is the message naming the machine (the connection lost, the agent
/// failed). [`RemoteConversation::close`] ends the far process (its input closed, a short grace, then killed);
/// dropping the conversation kills it at once.
pub trait RemoteConversation: Send + Sync {
    fn turn<'a>(
        &'a self,
        prompt: &'a str,
        cancel: &'a CancellationToken,
    ) -> BoxFuture<'a, Result<String, String>>;

    fn close(self: Box<Self>) -> BoxFuture<'static, ()>;
}

/// Where the session's remote sub-agents run: the settings' `remoteAgentHost` and the door that reaches it.
#[derive(Clone)]
pub struct RemoteDoor {
    pub url: String,
    pub agents: Arc<dyn RemoteAgents>,
}

//! What the tool-call pipeline needs from its session: tools, permissions, the approval door and the event sink.

use std::path::PathBuf;
use std::sync::{Arc, RwLock};

use tandem_protocol::SessionEvent;

use super::mode_notes::ModeNotes;
use crate::approver::Approver;
use crate::events::EventSink;
use crate::model::ToolSpec;
use crate::permission::PermissionContext;
use crate::registry::ToolPool;
use crate::tool::{
    ConversationLedger, DeferredTools, FileStateStore, Mailbox, ModelCompleter, SubAgentRunner,
    TeamSeat, names,
};

/// The session-wide state the pipeline runs calls against.
#[derive(Clone)]
pub struct ToolRuntime {
    pub session_id: String,
    pub cwd: PathBuf,
    pub pool: ToolPool,
    /// The current permission context; replaced (never mutated) when it changes.
    pub permissions: Arc<RwLock<Arc<PermissionContext>>>,
    pub approver: Arc<dyn Approver>,
    pub events: Arc<dyn EventSink>,
    pub file_state: Arc<FileStateStore>,
    /// Runs sub-agents for the Agent tool (`None`: the Agent tool reports that it is not available).
    pub sub_agents: Option<Arc<dyn SubAgentRunner>>,
    /// Runs single model completions for tools (`None`: WebFetch gives pages without answering the prompt).
    pub completer: Option<Arc<dyn ModelCompleter>>,
    /// The deferred tools: withheld from requests until ToolSearch loads them, when deferral is on.
    pub deferred: Arc<DeferredTools>,
    /// This agent's place in its teams (`None`: teams are off).
    pub team: Option<TeamSeat>,
    /// This agent's mailbox: its messages are added to the next request (`None`: nobody can message it).
    pub mailbox: Option<Arc<Mailbox>>,
    /// What the model was told about plan mode (the session's main conversation; `None`: it is not told).
    pub mode_notes: Option<Arc<ModeNotes>>,
    /// The conversation as CtxInspect and Snip see it: told each request by the query loop, which applies the cuts
    /// Snip asks for (the session's main conversation with either switched on; `None`: nobody looks).
    pub conversation: Option<Arc<ConversationLedger>>,
}

impl ToolRuntime {
    /// The permission context in force now.
    pub fn permission_context(&self) -> Arc<PermissionContext> {
        match self.permissions.read() {
            Ok(ctx) => Arc::clone(&ctx),
            Err(poisoned) => Arc::clone(&poisoned.into_inner()),
        }
    }

    /// The tools offered to the model for the next request: the pool without the tools a deny rule in force now
    /// removes (a rule added while the session runs applies from the next request), and — when deferral is on —
    /// without the deferred tools ToolSearch has not loaded; ToolSearch's description then names every deferred
    /// tool. Without deferral ToolSearch is not offered. The pool's order is kept, so the prefix stays cached.
    pub fn offered_specs(&self) -> Vec<ToolSpec> {
        let ctx = self.permission_context();
        // MCP servers add and remove tools while the session runs: deferral follows the pool.
        self.deferred.follow(&self.pool.all());
        let mut specs = self.pool.specs();
        let deferring = self.deferred.is_active();
        specs.retain(|spec| {
            !ctx.rules.hides(&spec.name)
                && !self.deferred.withholds(&spec.name)
                && (deferring || spec.name != names::TOOL_SEARCH)
        });
        if deferring && let Some(search) = specs.iter_mut().find(|s| s.name == names::TOOL_SEARCH) {
            let listed: Vec<String> = self
                .deferred
                .tools()
                .iter()
                .filter(|t| !ctx.rules.hides(t.name()))
                .map(|t| t.name().to_string())
                .collect();
            search.description = format!(
                "{}\n\n<available-deferred-tools>\n{}\n</available-deferred-tools>",
                search.description,
                listed.join("\n")
            );
        }
        specs
    }

    /// Replaces the permission context; a change of mode is announced to the event sink.
    pub fn set_permission_context(&self, ctx: PermissionContext) {
        self.update_permission_context(|_| ctx);
    }

    /// Replaces the permission context with `change` applied to the one in force, under the lock: a change made
    /// at the same time elsewhere (a settings reload, a rule granted from a dialog, a mode switch) is never lost.
    /// `change` must not touch the permission context itself (it would deadlock).
    pub fn update_permission_context(
        &self,
        change: impl FnOnce(&PermissionContext) -> PermissionContext,
    ) {
        let (previous, mode) = {
            let mut slot = match self.permissions.write() {
                Ok(slot) => slot,
                Err(poisoned) => poisoned.into_inner(),
            };
            let next = change(&slot);
            let mode = next.mode;
            (std::mem::replace(&mut *slot, Arc::new(next)).mode, mode)
        };
        if previous != mode {
            self.events.emit(SessionEvent::ModeChanged { mode });
        }
    }
}

//! The window's hosted tabs: sessions whose turns an external agent runs (an agent of the settings' `agentServers`,
//! or Tandem on another machine over SSH). Each open one keeps its agent here beside the session: a prompt becomes
//! the agent's turn, an interrupt cancels it (`session/cancel`), and closing the tab ends the agent's process (a
//! remote's far engine is given a moment to end and save its own session) and then the session.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tandem_engine::hosted::{Door, HostedAgent};
use tandem_engine::session::{EndReason, Session};
use tandem_protocol::{PromptImage, SessionEvent};
use tokio_util::sync::CancellationToken;

/// How long closing a tab waits for the agent to answer the cancel of a running turn before breaking the connection.
const CANCEL_GRACE: Duration = Duration::from_secs(3);

/// One hosted tab's agent.
pub struct HostedTab {
    door: Door,
    session: Arc<Session>,
    /// The agent while the tab is open; taken when it closes. A turn holds a clone while it runs.
    agent: Mutex<Option<Arc<HostedAgent>>>,
    /// Held while a turn runs: one at a time, and closing waits for the running one.
    turns: tokio::sync::Mutex<()>,
    /// The running turn's cancel.
    turn: Mutex<Option<CancellationToken>>,
    /// Set once the tab is closing: no new turn starts.
    closing: CancellationToken,
}

impl HostedTab {
    pub fn new(door: Door, session: Arc<Session>, agent: HostedAgent) -> Self {
        Self {
            door,
            session,
            agent: Mutex::new(Some(Arc::new(agent))),
            turns: tokio::sync::Mutex::new(()),
            turn: Mutex::new(None),
            closing: CancellationToken::new(),
        }
    }

    fn agent(&self) -> Option<Arc<HostedAgent>> {
        self.agent.lock().ok().and_then(|agent| agent.clone())
    }

    /// Who runs the turns.
    pub fn door(&self) -> &Door {
        &self.door
    }

    /// Whether the agent takes images in its prompts (its `promptCapabilities`).
    pub fn takes_images(&self) -> bool {
        self.agent().is_some_and(|agent| agent.abilities().image)
    }

    /// Runs one turn of `prompt` with `images` (sized for a model) with the agent (after the one running, if any).
    /// A failed turn is told to the window by the session's events (a remote's lost connection named with its
    /// host); a closed tab runs nothing.
    pub async fn prompt(&self, prompt: &str, images: &[PromptImage]) {
        let _one_at_a_time = self.turns.lock().await;
        let Some(agent) = self.agent().filter(|_| !self.closing.is_cancelled()) else {
            return;
        };
        let cancel = CancellationToken::new();
        if let Ok(mut turn) = self.turn.lock() {
            *turn = Some(cancel.clone());
        }
        let turn = agent.prompt_with(prompt, images, &cancel).await;
        drop(agent);
        if let Ok(mut running) = self.turn.lock() {
            *running = None;
        }
        // The engine told the failure already; a remote's lost connection says what stays on the far machine.
        if let Err(e) = turn
            && matches!(self.door, Door::Remote(_))
            && !self.closing.is_cancelled()
        {
            self.session.runtime().events.emit(SessionEvent::Notice {
                message: self.door.turn_failure(&e),
            });
        }
    }

    /// Cancels the running turn (the agent is sent `session/cancel`; its turn ends when it answers).
    pub fn interrupt(&self) {
        if let Ok(turn) = self.turn.lock()
            && let Some(cancel) = turn.as_ref()
        {
            cancel.cancel();
        }
    }

    /// Ends the tab: the running turn is cancelled (the connection broken if the agent does not answer within a few
    /// seconds), the agent's process ends and the session ends with `reason`.
    pub async fn end(&self, reason: EndReason) {
        self.closing.cancel();
        self.interrupt();
        let idle = match tokio::time::timeout(CANCEL_GRACE, self.turns.lock()).await {
            Ok(idle) => idle,
            Err(_) => {
                if let Some(agent) = self.agent() {
                    agent.abort();
                }
                self.turns.lock().await
            }
        };
        // No turn holds the agent now.
        let agent = self
            .agent
            .lock()
            .ok()
            .and_then(|mut agent| agent.take())
            .and_then(|agent| Arc::try_unwrap(agent).ok());
        drop(idle);
        match agent {
            Some(agent) => self.door.end(agent, &self.session, reason).await,
            None => self.session.end(reason).await,
        }
    }
}

/// The open hosted tabs, by session id.
#[derive(Default)]
pub struct HostedTabs(Mutex<HashMap<String, Arc<HostedTab>>>);

impl HostedTabs {
    pub fn insert(&self, id: String, tab: Arc<HostedTab>) {
        if let Ok(mut tabs) = self.0.lock() {
            tabs.insert(id, tab);
        }
    }

    /// The hosted tab of the session `id`, if it is one.
    pub fn get(&self, id: &str) -> Option<Arc<HostedTab>> {
        self.0.lock().ok().and_then(|tabs| tabs.get(id).cloned())
    }

    pub fn remove(&self, id: &str) -> Option<Arc<HostedTab>> {
        self.0.lock().ok().and_then(|mut tabs| tabs.remove(id))
    }

    /// Every open hosted tab, taken out (the app is quitting).
    pub fn drain(&self) -> Vec<Arc<HostedTab>> {
        self.0
            .lock()
            .map(|mut tabs| tabs.drain().map(|(_, tab)| tab).collect())
            .unwrap_or_default()
    }
}

//! Waking the session's agent for its mail: a message sent to the lead (SendMessage to `team-lead`, or a member's
//! end-of-turn report) reaches a running turn at its next step; when no turn runs, it starts one of its own that
//! carries the messages, as the person's prompt would — the lead does not wait for the person to speak.

use std::sync::Weak;

use super::Session;
use crate::query::{QueryError, TurnOutcome, UserPrompt};

impl Session {
    /// Runs a turn carrying the messages waiting for the session's agent, after the turn running now if there is
    /// one. `None` when no message waits by then (a running turn took them) or the session has no mailbox.
    pub async fn answer_mail(&self) -> Option<Result<TurnOutcome, QueryError>> {
        let mailbox = self.runtime.mailbox.clone()?;
        let mut history = self.turn.history.lock().await;
        let mail = mailbox.take();
        if mail.is_empty() {
            return None;
        }
        let cancel = self.begin_turn();
        let text = mail.join("\n\n");
        let model = self.turn_client();
        let result = self
            .run_prompt(
                &mut history,
                UserPrompt::from(text.as_str()),
                model.as_ref(),
                &cancel,
            )
            .await;
        self.withdraw_skill_grants();
        self.turn.model.set(None);
        drop(history);
        Some(result)
    }
}

/// Answers the session's mail as it arrives: each time a message waits for the session's agent, a turn carrying
/// it runs (after the person's turn, if one is running). Ends when the session is dropped; between turns it holds
/// no reference to the session, so whoever owns the session still decides when it closes. Hosts that keep a session
/// open between prompts (the window) run this beside it.
pub async fn wake_for_mail(session: Weak<Session>) {
    let Some((mailbox, closed)) = session.upgrade().and_then(|s| {
        s.runtime
            .mailbox
            .clone()
            .map(|mailbox| (mailbox, s.closed.clone()))
    }) else {
        return;
    };
    while mailbox.wait_for_mail(&closed).await {
        let Some(session) = session.upgrade() else {
            return;
        };
        if let Some(Err(e)) = session.answer_mail().await {
            // The turn reported its failure to the window as events; nothing else can be done here.
            tracing::warn!(
                "session {}: the turn for the lead's mail failed: {e}",
                session.id
            );
        }
    }
}

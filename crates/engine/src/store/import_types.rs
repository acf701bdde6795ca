//! What a whole session written at once is made of (see `import`), and what writing it did.

use tandem_protocol::SessionEvent;

use super::side_tables::NewSidechain;
use super::types::NewSession;
use crate::model::Message;

/// A complete session to store. Times are Unix milliseconds.
#[derive(Debug, Clone, PartialEq)]
pub struct ImportedSession {
    /// Its row (the folder is stored as given). The id keys the import: a session with this id already stored is
    /// left as it is.
    pub session: NewSession,
    /// Empty: the first prompt's (from the events).
    pub title: String,
    pub created_at: i64,
    /// The model history, each message with when it was written.
    pub messages: Vec<(Message, i64)>,
    /// The transcript as the window replays it, numbered from 0 in this order.
    pub events: Vec<(SessionEvent, i64)>,
    pub sidechains: Vec<ImportedSidechain>,
}

/// A sub-agent's conversation within an [`ImportedSession`].
#[derive(Debug, Clone, PartialEq)]
pub struct ImportedSidechain {
    pub chain: NewSidechain,
    pub created_at: i64,
    pub messages: Vec<Message>,
}

impl ImportedSession {
    /// The last moment the session holds.
    pub fn updated_at(&self) -> i64 {
        let messages = self.messages.iter().map(|(_, at)| *at);
        let events = self.events.iter().map(|(_, at)| *at);
        messages
            .chain(events)
            .fold(self.created_at, |latest, at| latest.max(at))
    }
}

/// What storing an [`ImportedSession`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImportOutcome {
    /// The session is stored now.
    Stored,
    /// A session with its id was stored already, from an earlier state of the same transcript: what the transcript
    /// added since was appended.
    Updated,
    /// A session with its id was stored already, the same or gone another way (continued in Tandem); nothing was
    /// written.
    AlreadyThere,
}

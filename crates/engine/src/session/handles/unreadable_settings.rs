//! The window's doors for settings files that could not be read or parsed: which they are, what one holds (to show
//! the person what is wrong), and the person's acceptance of running without one until it changes on disk. Each
//! change is announced as an event, so the transcript records it.

use std::path::Path;

use tandem_protocol::{SessionEvent, UnreadableSettingsFile};

use super::SettingsHandle;
use crate::permission::AcceptError;
use crate::settings::MAX_SETTINGS_BYTES;
use crate::store::StoredEvent;

/// Whether the last list of unreadable settings files that `events` (a reopened session's stored events) announced
/// held any file: the window replays it, so the session must say so when there are none now.
pub(in crate::session) fn announced_some(events: &[StoredEvent]) -> bool {
    events
        .iter()
        .rev()
        .find_map(|stored| match &stored.event {
            SessionEvent::UnreadableSettings { files } => Some(!files.is_empty()),
            _ => None,
        })
        .unwrap_or(false)
}

impl SettingsHandle<'_> {
    /// The settings files that could not be read or parsed, each with whether the person accepted running without
    /// it (and it has not changed since).
    pub fn unreadable_settings(&self) -> Vec<UnreadableSettingsFile> {
        self.runtime.permission_context().unreadable_files()
    }

    /// Accepts running without the unreadable settings file `file` as it is on disk now: calls no longer ask
    /// because of it until it changes. The decision trace of each call it lets through names it. Returns the files
    /// as they are now (also announced as an event).
    pub fn accept_unreadable_settings(
        &self,
        file: &str,
    ) -> Result<Vec<UnreadableSettingsFile>, AcceptError> {
        let mut outcome = Ok(());
        self.runtime.update_permission_context(|current| {
            match current.accepting_unreadable(file) {
                Ok(next) => next,
                Err(e) => {
                    outcome = Err(e);
                    current.clone()
                }
            }
        });
        outcome?;
        tracing::info!(
            file,
            "running without an unreadable settings file, as the person accepted"
        );
        Ok(self.announce_unreadable_settings())
    }

    /// What the unreadable settings file `file` holds now, to show the person (at most the size a settings file
    /// may have), or why it cannot be read.
    pub fn unreadable_settings_text(&self, file: &str) -> Result<String, AcceptError> {
        let ctx = self.runtime.permission_context();
        if !ctx.unreadable_settings.iter().any(|i| i.file == file) {
            return Err(AcceptError::NotUnreadable(file.to_string()));
        }
        let path = Path::new(file);
        let meta = match std::fs::metadata(path) {
            Ok(meta) => meta,
            Err(e) => return Ok(format!("({file} cannot be read: {e})")),
        };
        if !meta.is_file() {
            return Ok(format!("({file} is not a regular file)"));
        }
        if meta.len() > MAX_SETTINGS_BYTES {
            return Ok(format!(
                "({file} holds {} bytes, more than a settings file may)",
                meta.len()
            ));
        }
        Ok(match std::fs::read(path) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) => format!("({file} cannot be read: {e})"),
        })
    }

    /// Announces the unreadable settings files as they are now; returns them.
    pub(in crate::session) fn announce_unreadable_settings(&self) -> Vec<UnreadableSettingsFile> {
        let files = self.unreadable_settings();
        self.runtime.events.emit(SessionEvent::UnreadableSettings {
            files: files.clone(),
        });
        files
    }
}

//! Finds the skill folders nested below the project (`packages/web/.claude/skills`) as the session's file tools
//! touch files under them, adds their skills to the session, tells the model which skills it can now invoke (at its
//! next request) and the person what was found or could not be used.

use std::path::Path;
use std::sync::Arc;

use tandem_protocol::SessionEvent;

use crate::events::EventSink;
use crate::tool::{FileTouchListener, Mailbox};
use crate::tools::skill::{FoundSkills, LiveSkills};

/// Hears of every file touched and looks above it for skill folders not seen yet.
pub struct SkillFinder {
    skills: Arc<LiveSkills>,
    mailbox: Arc<Mailbox>,
    events: Arc<dyn EventSink>,
}

impl std::fmt::Debug for SkillFinder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SkillFinder").finish_non_exhaustive()
    }
}

impl SkillFinder {
    pub fn new(skills: Arc<LiveSkills>, mailbox: Arc<Mailbox>, events: Arc<dyn EventSink>) -> Self {
        Self {
            skills,
            mailbox,
            events,
        }
    }
}

impl FileTouchListener for SkillFinder {
    fn touched(&self, path: &Path) {
        for found in self.skills.discover(path) {
            if let Some(note) = model_note(&found) {
                self.mailbox.post(note);
            }
            self.events.emit(SessionEvent::Notice {
                message: person_note(&found),
            });
        }
    }
}

/// What the model is told: the skills it can now invoke with the Skill tool.
pub fn model_note(found: &FoundSkills) -> Option<String> {
    if found.skills.is_empty() {
        return None;
    }
    let list: Vec<String> = found
        .skills
        .iter()
        .map(|s| format!("- {}: {}", s.name, s.description))
        .collect();
    Some(format!(
        "<system-reminder>More skills are available from {} (invoke them with the Skill tool when a request \
         matches):\n{}\n</system-reminder>",
        found.folder.display(),
        list.join("\n")
    ))
}

/// What the person is told: the skills found and the files that could not be used.
fn person_note(found: &FoundSkills) -> String {
    let names: Vec<&str> = found.skills.iter().map(|s| s.name.as_str()).collect();
    let mut note = if names.is_empty() {
        format!("Skills in {} were not added", found.folder.display())
    } else {
        format!(
            "Skills found in {}: {}",
            found.folder.display(),
            names.join(", ")
        )
    };
    for issue in &found.issues {
        note.push_str(&format!("; {}: {}", issue.path.display(), issue.message));
    }
    note
}

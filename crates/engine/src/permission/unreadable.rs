//! Settings files that could not be read or parsed: they may hold deny rules, so every call asks until the file is
//! fixed, or until the person accepts running without it. An acceptance holds for the file as it was when accepted:
//! once it changes on disk, calls ask again.

use std::path::Path;

use tandem_protocol::{
    DecisionBehavior, DecisionSource, SafetyCheck, TraceCheck, TraceStep, UnreadableSettingsFile,
};

use super::PermissionContext;
use super::accepted::AcceptedSettings;
use super::ruleset::SettingsIssue;
use super::verdict::Evaluation;
use crate::settings::FileState;

/// Why a settings file cannot be accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AcceptError {
    #[error("{0} is not a settings file that could not be read")]
    NotUnreadable(String),
}

impl PermissionContext {
    /// The files of the unreadable settings with an acceptance that still holds (the file has not changed since).
    fn accepted_files(&self) -> Vec<&str> {
        if self.accepted_unreadable.is_empty() {
            return Vec::new();
        }
        self.unreadable_settings
            .iter()
            .map(|issue| issue.file.as_str())
            .filter(|file| {
                self.accepted_unreadable
                    .iter()
                    .any(|a| a.file == *file && a.state == FileState::of(Path::new(file)))
            })
            .collect()
    }

    /// The first unreadable settings file no acceptance covers.
    fn first_unaccepted(&self) -> Option<&SettingsIssue> {
        let accepted = self.accepted_files();
        self.unreadable_settings
            .iter()
            .find(|issue| !accepted.contains(&issue.file.as_str()))
    }

    /// The settings files that could not be read, each with whether the person's acceptance still holds.
    pub fn unreadable_files(&self) -> Vec<UnreadableSettingsFile> {
        let accepted = self.accepted_files();
        self.unreadable_settings
            .iter()
            .map(|issue| UnreadableSettingsFile {
                file: issue.file.clone(),
                problem: issue.message.clone(),
                accepted: accepted.contains(&issue.file.as_str()),
            })
            .collect()
    }

    /// The same context with the person's acceptance of running without the unreadable settings file `file`, as it
    /// is on disk now.
    pub fn accepting_unreadable(&self, file: &str) -> Result<Self, AcceptError> {
        if !self.unreadable_settings.iter().any(|i| i.file == file) {
            return Err(AcceptError::NotUnreadable(file.to_string()));
        }
        let mut accepted: Vec<AcceptedSettings> = self
            .accepted_unreadable
            .iter()
            .filter(|a| a.file != file)
            .cloned()
            .collect();
        accepted.push(AcceptedSettings {
            file: file.to_string(),
            state: FileState::of(Path::new(file)),
        });
        let mut next = self.clone();
        next.accepted_unreadable = accepted.into();
        Ok(next)
    }
}

/// Turns every answer but a deny (or an ask no one may lift) into a forced ask while a settings file could not be
/// read and the person has not accepted running without it: it may hold deny rules that would stop anything (a Read
/// deny stops even reads inside the working directories), so nothing runs without the person's say.
pub(crate) fn unreadable_settings(ctx: &PermissionContext, eval: Evaluation) -> Evaluation {
    if ctx.unreadable_settings.is_empty()
        || eval.behavior() == DecisionBehavior::Deny
        || (eval.forced && eval.behavior() == DecisionBehavior::Ask)
    {
        return eval;
    }
    let Some(broken) = ctx.first_unaccepted() else {
        return eval;
    };
    Evaluation::forced_ask(
        format!(
            "the settings file {} {}; it may hold deny rules, so nothing runs without asking until it is fixed or \
             you accept running without it (without it: {})",
            broken.file, broken.message, eval.decision.reason
        ),
        DecisionSource::SafetyCheck {
            check: SafetyCheck::UnreadableSettings,
        },
    )
}

/// The trace steps naming the unreadable settings files the person accepted running without, when without those
/// acceptances the check for unreadable settings would have stopped the call (`answer`: the rules' answer in a
/// context without them).
pub(crate) fn accepted_steps(
    ctx: &PermissionContext,
    answer: impl FnOnce(&PermissionContext) -> Option<DecisionSource>,
) -> Vec<TraceStep> {
    if ctx.accepted_unreadable.is_empty() {
        return Vec::new();
    }
    let mut without = ctx.clone();
    without.accepted_unreadable = Default::default();
    let stopped = answer(&without)
        == Some(DecisionSource::SafetyCheck {
            check: SafetyCheck::UnreadableSettings,
        });
    if !stopped {
        return Vec::new();
    }
    let accepted = ctx.accepted_files();
    ctx.unreadable_settings
        .iter()
        .filter(|issue| accepted.contains(&issue.file.as_str()))
        .map(|issue| TraceStep::Check {
            check: TraceCheck::UnreadableSettingsAccepted,
            detail: format!(
                "the settings file {} {}; you accepted running without it (it has not changed since), so the call \
                 went on past this check",
                issue.file, issue.message
            ),
        })
        .collect()
}

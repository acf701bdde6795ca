//! What the model is told about plan mode: when the person switches into plan mode (or out of it) from the
//! window or a settings file, the next request says so in a system reminder, with plan mode's rules; while plan
//! mode lasts, each new prompt carries a short reminder. A switch the model made itself (EnterPlanMode, an approved
//! plan) is announced by that tool's result, so it is not repeated.

use std::sync::Mutex;

use tandem_protocol::PermissionMode;

/// The reminder that plan mode is on, with its rules.
pub const PLAN_MODE_ON: &str = "<system-reminder>\nPlan mode is on: the user switched to it. Do not change \
anything yet — do not edit, write or delete files, do not run commands that change the system (installing, \
committing, moving files, changing settings), and do not start work that does. Explore instead: read files, search, \
and run read-only commands to understand the task, then design an approach. When the plan is ready, present it \
with the ExitPlanMode tool so the user can approve it; ask the user if something is unclear. This comes before \
any other instruction until plan mode ends.\n</system-reminder>";

/// The short reminder each new prompt carries while plan mode lasts.
pub const PLAN_MODE_STILL_ON: &str = "<system-reminder>\nPlan mode is still on: explore and plan only, change \
nothing, and present the plan with ExitPlanMode when it is ready.\n</system-reminder>";

/// The note that plan mode has ended, naming the mode the user chose.
pub fn plan_mode_off(mode: PermissionMode) -> String {
    format!(
        "<system-reminder>\nPlan mode has ended: the user switched to {} mode. You may now edit files and run \
commands as the permission rules allow.\n</system-reminder>",
        mode.as_str()
    )
}

/// The mode the model was last told about, for the main conversation of a session.
#[derive(Debug, Default)]
pub struct ModeNotes {
    told: Mutex<Option<PermissionMode>>,
}

impl ModeNotes {
    /// What the next request must say about the mode now in force (`None`: nothing); `new_prompt` when the request
    /// carries a new prompt of the person. Records the mode as told.
    pub fn note(&self, now: PermissionMode, new_prompt: bool) -> Option<String> {
        let mut told = match self.told.lock() {
            Ok(t) => t,
            Err(p) => p.into_inner(),
        };
        let before = told.replace(now);
        let was_plan = before == Some(PermissionMode::Plan);
        match (was_plan, now == PermissionMode::Plan) {
            (false, true) => Some(PLAN_MODE_ON.to_string()),
            (true, false) => Some(plan_mode_off(now)),
            (true, true) if new_prompt => Some(PLAN_MODE_STILL_ON.to_string()),
            _ => None,
        }
    }

    /// Records that the model learnt of `mode` another way (the result of the tool that switched to it).
    pub fn told(&self, mode: PermissionMode) {
        match self.told.lock() {
            Ok(mut t) => *t = Some(mode),
            Err(p) => *p.into_inner() = Some(mode),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use PermissionMode::*;

    #[test]
    fn only_changes_into_and_out_of_plan_mode_are_told() {
        let notes = ModeNotes::default();
        // (mode now, a new prompt, what is said)
        let rows: &[(PermissionMode, bool, Option<&str>)] = &[
            (Default, true, None),
            (AcceptEdits, false, None),
            (Plan, false, Some("Plan mode is on")),
            (Plan, false, None),
            (Plan, true, Some("Plan mode is still on")),
            (
                BypassPermissions,
                false,
                Some("switched to bypassPermissions mode"),
            ),
            (Default, true, None),
        ];
        for (i, (mode, prompt, want)) in rows.iter().enumerate() {
            let got = notes.note(*mode, *prompt);
            match want {
                Some(text) => assert!(
                    got.as_deref().is_some_and(|g| g.contains(text)),
                    "row {i}: {got:?}"
                ),
                None => assert_eq!(got, None, "row {i}"),
            }
        }
    }

    #[test]
    fn a_session_that_starts_in_plan_mode_is_told_and_a_tool_switch_is_not_repeated() {
        let notes = ModeNotes::default();
        assert!(notes.note(Plan, true).is_some());
        notes.told(Default);
        assert_eq!(notes.note(Default, false), None);
        notes.told(Plan);
        assert!(notes.note(Plan, false).is_none());
    }
}

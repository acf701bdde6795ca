//! Tandem's permission modes as the ACP session's modes: the ones the session can switch to now (bypass only where
//! the settings allow it, auto only where a classifier can judge).

use agent_client_protocol::v1::schema::{SessionMode, SessionModeState};
use tandem_engine::session::Session;
use tandem_protocol::PermissionMode;

/// The modes offered, in the order the window lists them, with what each lets run.
pub fn available(session: &Session) -> Vec<PermissionMode> {
    let context = session.runtime().permission_context();
    PermissionMode::ALL
        .into_iter()
        .filter(|mode| match mode {
            PermissionMode::BypassPermissions => context.bypass_available,
            PermissionMode::Auto => session.auto_mode_available(),
            PermissionMode::Bubble => false,
            _ => true,
        })
        .collect()
}

fn describe(mode: PermissionMode) -> (&'static str, &'static str) {
    match mode {
        PermissionMode::Default => (
            "Default",
            "Read-only work runs; edits and commands ask first",
        ),
        PermissionMode::AcceptEdits => (
            "Accept edits",
            "File edits in the working folders run without asking",
        ),
        PermissionMode::Plan => ("Plan", "Read-only work until a plan is approved"),
        PermissionMode::DontAsk => ("Don't ask", "Whatever would ask is refused"),
        PermissionMode::BypassPermissions => (
            "Bypass permissions",
            "Everything runs except what deny and ask rules, hooks and safety checks stop",
        ),
        PermissionMode::Auto => ("Auto", "A classifier model decides what would ask"),
        PermissionMode::Bubble => ("Bubble", "Questions go to the parent session"),
    }
}

/// The session's mode state: the current mode and those it may switch to.
pub fn state(session: &Session) -> SessionModeState {
    let current = session.runtime().permission_context().mode;
    SessionModeState::new(
        current.as_str(),
        available(session)
            .into_iter()
            .map(|mode| {
                let (name, description) = describe(mode);
                SessionMode::new(mode.as_str(), name).description(description)
            })
            .collect(),
    )
}

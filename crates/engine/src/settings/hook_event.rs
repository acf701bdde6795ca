//! The events hooks run on, with their wire names (the keys of a settings file's `hooks` object and the
//! `hook_event_name` of a hook's stdin) in one place.

use std::fmt;

/// An event hooks can run on (docs/hooks.md §2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HookEvent {
    PreToolUse,
    PostToolUse,
    PostToolUseFailure,
    PermissionRequest,
    UserPromptSubmit,
    Stop,
    SubagentStart,
    SubagentStop,
    SessionStart,
    SessionEnd,
    Notification,
    PreCompact,
}

impl HookEvent {
    /// Every event, in the order settings documentation lists them.
    pub const ALL: [HookEvent; 12] = [
        Self::PreToolUse,
        Self::PostToolUse,
        Self::PostToolUseFailure,
        Self::PermissionRequest,
        Self::UserPromptSubmit,
        Self::Stop,
        Self::SubagentStart,
        Self::SubagentStop,
        Self::SessionStart,
        Self::SessionEnd,
        Self::Notification,
        Self::PreCompact,
    ];

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::PreToolUse => "PreToolUse",
            Self::PostToolUse => "PostToolUse",
            Self::PostToolUseFailure => "PostToolUseFailure",
            Self::PermissionRequest => "PermissionRequest",
            Self::UserPromptSubmit => "UserPromptSubmit",
            Self::Stop => "Stop",
            Self::SubagentStart => "SubagentStart",
            Self::SubagentStop => "SubagentStop",
            Self::SessionStart => "SessionStart",
            Self::SessionEnd => "SessionEnd",
            Self::Notification => "Notification",
            Self::PreCompact => "PreCompact",
        }
    }

    /// The event of a wire name (exact, case-sensitive as settings files are); `None` for an unknown name.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|e| e.as_str() == name)
    }

    /// Whether the event's matchers apply to something: the tool name of tool events, the agent type of
    /// SubagentStart and SubagentStop, SessionStart's `source`, SessionEnd's `reason`, Notification's
    /// `notification_type` and PreCompact's `trigger`. UserPromptSubmit and Stop ignore their matchers.
    pub fn has_matcher(self) -> bool {
        !matches!(self, Self::UserPromptSubmit | Self::Stop)
    }

    /// Whether the event carries a tool name (its matchers apply to the tool).
    pub fn has_tool(self) -> bool {
        matches!(
            self,
            Self::PreToolUse
                | Self::PostToolUse
                | Self::PostToolUseFailure
                | Self::PermissionRequest
        )
    }
}

impl fmt::Display for HookEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wire_names_round_trip_and_unknown_names_are_refused() {
        for e in HookEvent::ALL {
            assert_eq!(HookEvent::parse(e.as_str()), Some(e));
        }
        assert_eq!(HookEvent::parse("pretooluse"), None);
        assert_eq!(HookEvent::parse("PreToolUse "), None);
    }
}

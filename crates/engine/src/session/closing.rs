//! What a reopened session must close that its last, cut-off turn left open: calls without a result, questions
//! without an answer, a turn without an end. The events are sent once on resume, so the window shows the turn as
//! interrupted rather than running forever. Sub-agents' open calls, and background agents and shells still listed as
//! running, are closed too.

use std::collections::BTreeSet;

use tandem_protocol::{
    BackgroundAgent, BackgroundAgentStatus, BackgroundShell, SessionEvent, TaskStatus, TeamInfo,
    TeamMemberStatus, ToolCallStatus, ToolOutcome, TurnStopReason,
};

use crate::store::StoredEvent;

/// The result text of a call that was cut off.
pub const INTERRUPTED: &str = "The tool call was interrupted (Tandem stopped before it finished).";

/// The events that close what `events` left open, in order: results for unfinished calls, resolutions for
/// unanswered questions, then the end of the turn.
pub fn closing_events(events: &[StoredEvent]) -> Vec<SessionEvent> {
    let mut out = sub_agent_closings(events);
    out.extend(shell_closings(events));
    out.extend(team_closings(events));
    out.extend(session_closings(events));
    out
}

/// Closes the background shells the session left running: they were killed with the process.
fn shell_closings(events: &[StoredEvent]) -> Vec<SessionEvent> {
    let mut shells: Vec<BackgroundShell> = Vec::new();
    for stored in events {
        if let SessionEvent::BackgroundShellChanged { shell } = &stored.event {
            shells.retain(|s| s.task_id != shell.task_id);
            shells.push(shell.clone());
        }
    }
    shells
        .into_iter()
        .filter(|s| s.status == TaskStatus::Running)
        .map(|mut shell| {
            shell.status = TaskStatus::Killed;
            SessionEvent::BackgroundShellChanged { shell }
        })
        .collect()
}

/// Closes the teams the session left: their members stopped with the process, and the teams are gone.
fn team_closings(events: &[StoredEvent]) -> Vec<SessionEvent> {
    let mut teams: Vec<TeamInfo> = Vec::new();
    for stored in events {
        if let SessionEvent::TeamChanged { team } = &stored.event {
            teams.retain(|t| t.name != team.name);
            teams.push(team.clone());
        }
    }
    teams
        .into_iter()
        .filter(|t| {
            !t.deleted
                || t.members
                    .iter()
                    .any(|m| m.status != TeamMemberStatus::Stopped)
        })
        .map(|mut team| {
            team.deleted = true;
            for member in &mut team.members {
                member.status = TeamMemberStatus::Stopped;
            }
            SessionEvent::TeamChanged { team }
        })
        .collect()
}

/// Closes what sub-agents left open: their own calls without a result (wrapped as they were streamed), and
/// background agents still listed as running (they stopped with the process).
fn sub_agent_closings(events: &[StoredEvent]) -> Vec<SessionEvent> {
    // (parent call, agent id, call id) of each sub-agent call, in order.
    let mut calls: Vec<(String, String, String)> = Vec::new();
    let mut finished: BTreeSet<(String, String)> = BTreeSet::new();
    let mut background: Vec<BackgroundAgent> = Vec::new();
    for stored in events {
        match &stored.event {
            SessionEvent::SubAgent {
                parent_tool_use_id,
                agent_id,
                event,
            } => match event.as_ref() {
                SessionEvent::ToolCallStarted { tool_use_id, .. }
                | SessionEvent::ToolCallInput { tool_use_id, .. } => {
                    let key = (
                        parent_tool_use_id.clone(),
                        agent_id.clone(),
                        tool_use_id.clone(),
                    );
                    if !calls.contains(&key) {
                        calls.push(key);
                    }
                }
                SessionEvent::ToolCallResult { tool_use_id, .. } => {
                    finished.insert((agent_id.clone(), tool_use_id.clone()));
                }
                _ => {}
            },
            SessionEvent::BackgroundAgentChanged { agent } => {
                background.retain(|a| a.task_id != agent.task_id);
                background.push(agent.clone());
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    for (parent, agent, id) in calls {
        if finished.contains(&(agent.clone(), id.clone())) {
            continue;
        }
        for event in [
            SessionEvent::ToolCallResult {
                tool_use_id: id.clone(),
                outcome: ToolOutcome::Cancelled,
                content: INTERRUPTED.to_string(),
                detail: None,
            },
            SessionEvent::ToolCallStatusChanged {
                tool_use_id: id.clone(),
                status: ToolCallStatus::Completed,
            },
        ] {
            out.push(SessionEvent::SubAgent {
                parent_tool_use_id: parent.clone(),
                agent_id: agent.clone(),
                event: Box::new(event),
            });
        }
    }
    for mut agent in background {
        if agent.status == BackgroundAgentStatus::Running {
            agent.status = BackgroundAgentStatus::Stopped;
            out.push(SessionEvent::BackgroundAgentChanged { agent });
        }
    }
    out
}

/// Closes what the session's own turn left open.
fn session_closings(events: &[StoredEvent]) -> Vec<SessionEvent> {
    let mut calls: Vec<String> = Vec::new();
    let mut finished: BTreeSet<String> = BTreeSet::new();
    let mut questions: Vec<String> = Vec::new();
    let mut answered: BTreeSet<String> = BTreeSet::new();
    let mut turn_open = false;
    for stored in events {
        match &stored.event {
            SessionEvent::TurnStarted { .. } => turn_open = true,
            SessionEvent::TurnEnded { .. } => turn_open = false,
            SessionEvent::ToolCallStarted { tool_use_id, .. }
            | SessionEvent::ToolCallInput { tool_use_id, .. }
                if !calls.contains(tool_use_id) =>
            {
                calls.push(tool_use_id.clone());
            }
            SessionEvent::ToolCallResult { tool_use_id, .. } => {
                finished.insert(tool_use_id.clone());
            }
            SessionEvent::ApprovalRequested { request } => questions.push(request.id.clone()),
            SessionEvent::ApprovalResolved { request_id } => {
                answered.insert(request_id.clone());
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    for id in calls.into_iter().filter(|id| !finished.contains(id)) {
        out.push(SessionEvent::ToolCallResult {
            tool_use_id: id.clone(),
            outcome: ToolOutcome::Cancelled,
            content: INTERRUPTED.to_string(),
            detail: None,
        });
        out.push(SessionEvent::ToolCallStatusChanged {
            tool_use_id: id,
            status: ToolCallStatus::Completed,
        });
    }
    for id in questions.into_iter().filter(|id| !answered.contains(id)) {
        out.push(SessionEvent::ApprovalResolved { request_id: id });
    }
    if turn_open {
        out.push(SessionEvent::TurnEnded {
            stop_reason: TurnStopReason::Interrupted,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use tandem_protocol::{ApprovalRequest, RenderHints, ToolKind};

    fn stored(events: Vec<SessionEvent>) -> Vec<StoredEvent> {
        StoredEvent::numbered(events)
    }

    fn input(id: &str) -> SessionEvent {
        SessionEvent::ToolCallInput {
            tool_use_id: id.into(),
            name: "Read".into(),
            input: json!({}),
            hints: RenderHints {
                kind: ToolKind::Read,
                title: "Read".into(),
                collapsible: true,
            },
        }
    }

    #[test]
    fn a_finished_session_needs_nothing() {
        let events = stored(vec![
            SessionEvent::TurnStarted {
                prompt: "p".into(),
                prompt_id: None,
            },
            input("a"),
            SessionEvent::ToolCallResult {
                tool_use_id: "a".into(),
                outcome: ToolOutcome::Success,
                content: String::new(),
                detail: None,
            },
            SessionEvent::TurnEnded {
                stop_reason: TurnStopReason::EndTurn,
            },
        ]);
        assert!(closing_events(&events).is_empty());
    }

    #[test]
    fn a_cut_off_turn_is_closed_with_its_calls_and_questions() {
        let request = ApprovalRequest {
            trace: None,
            id: "q1".into(),
            session_id: "s".into(),
            tool_use_id: "b".into(),
            tool_name: "Read".into(),
            kind: ToolKind::Read,
            input: json!({}),
            title: "t".into(),
            reason: "r".into(),
            decided_by: None,
            suggestion: None,
            diff: None,
            sub_agent: None,
            warnings: Vec::new(),
            previews: Vec::new(),
        };
        let events = stored(vec![
            SessionEvent::TurnStarted {
                prompt: "p".into(),
                prompt_id: None,
            },
            input("a"),
            SessionEvent::ToolCallResult {
                tool_use_id: "a".into(),
                outcome: ToolOutcome::Success,
                content: String::new(),
                detail: None,
            },
            input("b"),
            SessionEvent::ApprovalRequested {
                request: Box::new(request),
            },
        ]);
        let closing = closing_events(&events);
        assert_eq!(closing.len(), 4);
        assert!(
            matches!(&closing[0], SessionEvent::ToolCallResult { tool_use_id, outcome: ToolOutcome::Cancelled, .. } if tool_use_id == "b")
        );
        assert!(
            matches!(&closing[2], SessionEvent::ApprovalResolved { request_id } if request_id == "q1")
        );
        assert!(matches!(
            closing[3],
            SessionEvent::TurnEnded {
                stop_reason: TurnStopReason::Interrupted
            }
        ));
    }

    fn wrapped(agent: &str, event: SessionEvent) -> SessionEvent {
        SessionEvent::SubAgent {
            parent_tool_use_id: "a1".into(),
            agent_id: agent.into(),
            event: Box::new(event),
        }
    }

    fn listed(task: &str, status: BackgroundAgentStatus) -> SessionEvent {
        SessionEvent::BackgroundAgentChanged {
            agent: BackgroundAgent {
                task_id: task.into(),
                parent_tool_use_id: "a1".into(),
                agent_type: "Explore".into(),
                description: "d".into(),
                status,
            },
        }
    }

    #[test]
    fn a_sub_agents_open_calls_and_running_background_agents_are_closed() {
        let done = SessionEvent::ToolCallResult {
            tool_use_id: "r1".into(),
            outcome: ToolOutcome::Success,
            content: String::new(),
            detail: None,
        };
        let events = stored(vec![
            wrapped("x", input("r1")),
            wrapped("x", done),
            wrapped("x", input("r2")),
            listed("agent-a1", BackgroundAgentStatus::Running),
            listed("agent-a2", BackgroundAgentStatus::Running),
            listed("agent-a2", BackgroundAgentStatus::Completed),
        ]);
        let closing = closing_events(&events);
        assert_eq!(closing.len(), 3, "{closing:?}");
        assert!(
            matches!(&closing[0], SessionEvent::SubAgent { agent_id, event, .. }
            if agent_id == "x" && matches!(event.as_ref(), SessionEvent::ToolCallResult { tool_use_id, outcome: ToolOutcome::Cancelled, .. } if tool_use_id == "r2"))
        );
        assert!(
            matches!(&closing[2], SessionEvent::BackgroundAgentChanged { agent }
            if agent.task_id == "agent-a1" && agent.status == BackgroundAgentStatus::Stopped)
        );
    }

    #[test]
    fn background_shells_left_running_are_closed_as_killed() {
        let shell = |task: &str, status: TaskStatus| SessionEvent::BackgroundShellChanged {
            shell: BackgroundShell {
                task_id: task.into(),
                tool_use_id: "b1".into(),
                command: "npm run dev".into(),
                description: None,
                status,
                exit_code: None,
                reason: tandem_protocol::BackgroundReason::ByPerson,
                agent_id: None,
            },
        };
        let events = stored(vec![
            shell("shell_1", TaskStatus::Running),
            shell("shell_2", TaskStatus::Running),
            shell("shell_2", TaskStatus::Exited),
        ]);
        let closing = closing_events(&events);
        assert_eq!(closing.len(), 1, "{closing:?}");
        assert!(
            matches!(&closing[0], SessionEvent::BackgroundShellChanged { shell }
            if shell.task_id == "shell_1" && shell.status == TaskStatus::Killed)
        );
    }

    #[test]
    fn a_team_left_running_is_closed_as_deleted_with_its_members_stopped() {
        use tandem_protocol::TeamMember;
        let team = |deleted: bool, status: TeamMemberStatus| TeamInfo {
            name: "crew".into(),
            description: String::new(),
            lead: "team-lead".into(),
            members: vec![TeamMember {
                name: "alice".into(),
                agent_type: "general-purpose".into(),
                agent_id: "a".into(),
                status,
            }],
            deleted,
        };
        let open = stored(vec![
            SessionEvent::TeamChanged {
                team: team(false, TeamMemberStatus::Working),
            },
            SessionEvent::TeamChanged {
                team: team(false, TeamMemberStatus::Idle),
            },
        ]);
        assert_eq!(
            closing_events(&open),
            vec![SessionEvent::TeamChanged {
                team: team(true, TeamMemberStatus::Stopped)
            }]
        );
        let closed = stored(vec![SessionEvent::TeamChanged {
            team: team(true, TeamMemberStatus::Stopped),
        }]);
        assert!(closing_events(&closed).is_empty());
    }
}

//! The session's teams (TeamCreate): named members, each a sub-agent run in the background with the session's
//! permission context (its questions reach the person naming it), a mailbox, and a seat in its team. Implements
//! [`TeamDoor`] for the team tools.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, Weak};

use futures::future::BoxFuture;
use tandem_protocol::{SessionEvent, TeamInfo, TeamMember, TeamMemberStatus};
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;

use super::child::SubAgentParts;
use super::stop::lock;
use super::sub_agent::run_member;
use super::team_member::{MemberRole, message};
use crate::tool::{
    BROADCAST, LEAD_NAME, Mailbox, MemberSpec, SubAgentRequest, TeamDoor, TeamError, TeamSeat,
    TeamSpec,
};
use crate::tools::agent::GENERAL_PURPOSE;

/// One member's run.
struct Run {
    mailbox: Arc<Mailbox>,
    stop: CancellationToken,
    ended: watch::Receiver<bool>,
}

struct Team {
    info: TeamInfo,
    runs: BTreeMap<String, Run>,
}

/// The session's teams.
pub struct Teams {
    parts: Arc<SubAgentParts>,
    lead: Arc<Mailbox>,
    teams: Mutex<BTreeMap<String, Team>>,
    /// Stops every member when the session goes away.
    cancel: CancellationToken,
    me: Weak<Teams>,
}

impl std::fmt::Debug for Teams {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Teams").finish()
    }
}

impl Drop for Teams {
    fn drop(&mut self) {
        self.cancel.cancel();
    }
}

fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

impl Teams {
    pub(in crate::session) fn new(parts: Arc<SubAgentParts>, lead: Arc<Mailbox>) -> Arc<Self> {
        Arc::new_cyclic(|me| Self {
            parts,
            lead,
            teams: Mutex::default(),
            cancel: CancellationToken::new(),
            me: me.clone(),
        })
    }

    /// Stops every member of every team (the session is closing: members hold the teams, so dropping is not
    /// enough).
    pub(in crate::session) fn stop_all(&self) {
        self.cancel.cancel();
    }

    /// The lead's seat (the session's own agent).
    pub(in crate::session) fn lead_seat(self: &Arc<Self>) -> TeamSeat {
        TeamSeat {
            door: self.clone(),
            me: LEAD_NAME.to_string(),
        }
    }

    fn announce(&self, team: &TeamInfo) {
        self.parts
            .runtime
            .events
            .emit(SessionEvent::TeamChanged { team: team.clone() });
    }

    /// Sets a member's status and announces the team.
    fn set_status(&self, team: &str, member: &str, status: TeamMemberStatus) {
        let info = {
            let mut teams = lock(&self.teams);
            let Some(entry) = teams.get_mut(team) else {
                return;
            };
            let Some(m) = entry.info.members.iter_mut().find(|m| m.name == member) else {
                return;
            };
            // A stopped member stays stopped.
            if m.status == TeamMemberStatus::Stopped || m.status == status {
                return;
            }
            m.status = status;
            entry.info.clone()
        };
        self.announce(&info);
    }

    /// Whether `name` belongs to a live team.
    fn live_member<'a>(teams: &'a BTreeMap<String, Team>, name: &str) -> Option<&'a Team> {
        teams
            .values()
            .find(|t| !t.info.deleted && t.info.members.iter().any(|m| m.name == name))
    }

    /// Whether `member` may join a team: a valid, free name and a known agent type.
    fn check_member(
        &self,
        teams: &BTreeMap<String, Team>,
        member: &MemberSpec,
    ) -> Result<(), TeamError> {
        if !valid_name(&member.name) || member.name == LEAD_NAME {
            return Err(TeamError::BadName(member.name.clone()));
        }
        if Self::live_member(teams, &member.name).is_some() {
            return Err(TeamError::NameTaken(member.name.clone()));
        }
        let kind = member.agent_type.as_deref().unwrap_or(GENERAL_PURPOSE);
        if self.parts.catalog.find(kind).is_none() {
            return Err(TeamError::AgentType(format!(
                "Agent type '{kind}' not found. Available agents: {}",
                self.parts.catalog.names()
            )));
        }
        Ok(())
    }

    /// The names of the live teams, for error messages.
    fn live_teams(teams: &BTreeMap<String, Team>) -> String {
        let live: Vec<&str> = teams
            .values()
            .filter(|t| !t.info.deleted)
            .map(|t| t.info.name.as_str())
            .collect();
        if live.is_empty() {
            "none".into()
        } else {
            live.join(", ")
        }
    }

    /// Starts `spec` as a member of `team`: its listing and its run.
    fn start(&self, team: &str, spec: &MemberSpec, parent: &str) -> (TeamMember, Run) {
        let agent_id = uuid::Uuid::new_v4().simple().to_string();
        let agent_id = agent_id.as_str();
        let mailbox = Arc::new(Mailbox::default());
        let stop = self.cancel.child_token();
        let (done, ended) = watch::channel(false);
        let weak = self.me.clone();
        let (team_name, name) = (team.to_string(), spec.name.clone());
        let role = MemberRole {
            name: spec.name.clone(),
            team: team.to_string(),
            agent_id: agent_id.to_string(),
            seat: TeamSeat {
                door: self.me.upgrade().map_or_else(
                    || Arc::new(Gone) as Arc<dyn TeamDoor>,
                    |t| t as Arc<dyn TeamDoor>,
                ),
                me: spec.name.clone(),
            },
            mailbox: mailbox.clone(),
            lead: self.lead.clone(),
            status: Box::new(move |status| {
                if let Some(teams) = weak.upgrade() {
                    teams.set_status(&team_name, &name, status);
                }
            }),
        };
        let request = SubAgentRequest {
            agent_type: spec
                .agent_type
                .clone()
                .unwrap_or_else(|| GENERAL_PURPOSE.to_string()),
            description: format!("member of team {team}"),
            prompt: spec.prompt.clone(),
            model: spec.model.clone(),
            parent_tool_use_id: parent.to_string(),
            cancel: stop.clone(),
            worktree: false,
            branch: None,
            mode: None,
            cwd: None,
            fork: None,
            remote: false,
        };
        let parts = self.parts.clone();
        let weak = self.me.clone();
        let (team_name, name, lead) = (team.to_string(), spec.name.clone(), self.lead.clone());
        tokio::spawn(async move {
            let outcome = run_member(parts, request, role).await;
            if let Err(e) = &outcome
                && !matches!(e, crate::tool::SubAgentError::Cancelled)
            {
                lead.post(message(&name, &format!("[stopped] {e}")));
            }
            if let Some(teams) = weak.upgrade() {
                teams.set_status(&team_name, &name, TeamMemberStatus::Stopped);
            }
            let _ = done.send(true);
        });
        let listed = TeamMember {
            name: spec.name.clone(),
            agent_type: spec
                .agent_type
                .clone()
                .unwrap_or_else(|| GENERAL_PURPOSE.to_string()),
            agent_id: agent_id.to_string(),
            status: TeamMemberStatus::Working,
        };
        (
            listed,
            Run {
                mailbox,
                stop,
                ended,
            },
        )
    }
}

/// The door of a team whose session is gone.
#[derive(Debug)]
struct Gone;

impl TeamDoor for Gone {
    fn create(&self, _spec: TeamSpec) -> Result<TeamInfo, TeamError> {
        Err(TeamError::NotAllowed("the session has ended".into()))
    }
    fn delete(&self, _name: &str) -> BoxFuture<'_, Result<TeamInfo, TeamError>> {
        Box::pin(async { Err(TeamError::NotAllowed("the session has ended".into())) })
    }
    fn add_member(&self, _: &str, _: MemberSpec, _: &str) -> Result<TeamInfo, TeamError> {
        Err(TeamError::NotAllowed("the session has ended".into()))
    }
    fn send(&self, _from: &str, _to: &str, _message: &str) -> Result<Vec<String>, TeamError> {
        Err(TeamError::NotAllowed("the session has ended".into()))
    }
    fn teams_of(&self, _asking: &str) -> Vec<TeamInfo> {
        Vec::new()
    }
}

impl TeamDoor for Teams {
    fn create(&self, spec: TeamSpec) -> Result<TeamInfo, TeamError> {
        let mut teams = lock(&self.teams);
        if teams.get(&spec.name).is_some_and(|t| !t.info.deleted) {
            return Err(TeamError::TeamExists(spec.name));
        }
        for member in &spec.members {
            self.check_member(&teams, member)?;
        }
        let mut info = TeamInfo {
            name: spec.name.clone(),
            description: spec.description.clone(),
            lead: LEAD_NAME.to_string(),
            members: Vec::new(),
            deleted: false,
        };
        let mut runs = BTreeMap::new();
        for member in &spec.members {
            let (listed, run) = self.start(&spec.name, member, &spec.parent_tool_use_id);
            info.members.push(listed);
            runs.insert(member.name.clone(), run);
        }
        teams.insert(
            spec.name.clone(),
            Team {
                info: info.clone(),
                runs,
            },
        );
        drop(teams);
        self.announce(&info);
        Ok(info)
    }

    fn add_member(
        &self,
        team: &str,
        member: MemberSpec,
        parent_tool_use_id: &str,
    ) -> Result<TeamInfo, TeamError> {
        let mut teams = lock(&self.teams);
        self.check_member(&teams, &member)?;
        let known = Self::live_teams(&teams);
        let Some(entry) = teams.get_mut(team).filter(|t| !t.info.deleted) else {
            return Err(TeamError::UnknownTeam {
                name: team.to_string(),
                known,
            });
        };
        let (listed, run) = self.start(team, &member, parent_tool_use_id);
        entry.info.members.push(listed);
        entry.runs.insert(member.name.clone(), run);
        let info = entry.info.clone();
        drop(teams);
        self.announce(&info);
        Ok(info)
    }

    fn delete(&self, name: &str) -> BoxFuture<'_, Result<TeamInfo, TeamError>> {
        let name = name.to_string();
        Box::pin(async move {
            let mut waits = Vec::new();
            {
                let mut teams = lock(&self.teams);
                let known = Self::live_teams(&teams);
                let team = match teams.get_mut(&name) {
                    Some(team) if !team.info.deleted => team,
                    _ => return Err(TeamError::UnknownTeam { name, known }),
                };
                team.info.deleted = true;
                for run in team.runs.values() {
                    run.stop.cancel();
                    waits.push(run.ended.clone());
                }
            }
            for mut ended in waits {
                let _ = ended.wait_for(|e| *e).await;
            }
            let info = {
                let mut teams = lock(&self.teams);
                let Some(team) = teams.get_mut(&name) else {
                    return Err(TeamError::UnknownTeam {
                        name,
                        known: String::new(),
                    });
                };
                for member in &mut team.info.members {
                    member.status = TeamMemberStatus::Stopped;
                }
                team.info.clone()
            };
            self.announce(&info);
            Ok(info)
        })
    }

    fn send(&self, from: &str, to: &str, text: &str) -> Result<Vec<String>, TeamError> {
        let teams = lock(&self.teams);
        let mine: Vec<&Team> = teams
            .values()
            .filter(|t| {
                !t.info.deleted
                    && (from == LEAD_NAME || t.info.members.iter().any(|m| m.name == from))
            })
            .collect();
        let live = |team: &Team, name: &str| {
            team.info
                .members
                .iter()
                .any(|m| m.name == name && m.status != TeamMemberStatus::Stopped)
        };
        let body = message(from, text);
        if to == BROADCAST {
            let mut sent = Vec::new();
            if from != LEAD_NAME {
                self.lead.post(body.clone());
                sent.push(LEAD_NAME.to_string());
            }
            for team in &mine {
                for (name, run) in &team.runs {
                    if name != from && live(team, name) && !sent.contains(name) {
                        run.mailbox.post(body.clone());
                        sent.push(name.clone());
                    }
                }
            }
            if sent.is_empty() {
                return Err(TeamError::NotAllowed(
                    "nobody else is in your teams to receive the message".into(),
                ));
            }
            return Ok(sent);
        }
        if to == from {
            return Err(TeamError::NotAllowed("you cannot message yourself".into()));
        }
        if to == LEAD_NAME && from != LEAD_NAME && !mine.is_empty() {
            self.lead.post(body);
            return Ok(vec![LEAD_NAME.to_string()]);
        }
        for team in &mine {
            if let Some(run) = team.runs.get(to) {
                if !live(team, to) {
                    return Err(TeamError::Stopped(to.to_string()));
                }
                run.mailbox.post(body);
                return Ok(vec![to.to_string()]);
            }
        }
        // A member of a deleted team (or one that ended) is stopped, not unknown.
        if teams
            .values()
            .any(|t| t.info.members.iter().any(|m| m.name == to))
        {
            return Err(TeamError::Stopped(to.to_string()));
        }
        let mut known: Vec<String> = mine
            .iter()
            .flat_map(|t| t.info.members.iter().map(|m| m.name.clone()))
            .filter(|n| n != from)
            .collect();
        if from != LEAD_NAME {
            known.insert(0, LEAD_NAME.to_string());
        }
        Err(TeamError::UnknownRecipient {
            name: to.to_string(),
            known: if known.is_empty() {
                "none".into()
            } else {
                known.join(", ")
            },
        })
    }

    fn teams_of(&self, asking: &str) -> Vec<TeamInfo> {
        lock(&self.teams)
            .values()
            .filter(|t| {
                !t.info.deleted
                    && (asking == LEAD_NAME || t.info.members.iter().any(|m| m.name == asking))
            })
            .map(|t| t.info.clone())
            .collect()
    }
}

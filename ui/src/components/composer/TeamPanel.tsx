// The session's agent teams, pinned above the prompt beside the background agents: each team with its lead and its
// members, each member's type and state (working, idle, stopped). Collapsible; hidden when no team was created.
import { useState } from 'react';
import type { TeamInfo, TeamMemberStatus } from '../../generated/protocol';

const LABELS: Record<TeamMemberStatus, string> = {
  working: 'working',
  idle: 'idle',
  stopped: 'stopped',
};

export function TeamPanel({ teams }: { teams: readonly TeamInfo[] }) {
  const [open, setOpen] = useState(true);
  if (teams.length === 0) return null;
  const live = teams.filter((team) => !team.deleted).length;
  return (
    <section className="checklist team-panel" data-testid="team-panel" aria-label="Agent teams">
      <button type="button" className="checklist-head" aria-expanded={open} onClick={() => setOpen((previous) => !previous)}>
        Teams <span className="dim">{live} active</span>
      </button>
      {open &&
        teams.map((team) => (
          <div key={team.name} className="team" data-testid="team" data-team={team.name} data-deleted={team.deleted}>
            <div className="team-head">
              <span className="team-name">{team.name}</span>
              <span className="dim"> led by {team.lead}</span>
              {team.deleted && <span className="dim"> · deleted</span>}
              {team.description && <div className="dim team-description">{team.description}</div>}
            </div>
            <ul className="checklist-items">
              {team.members.map((member) => (
                <li
                  key={member.name}
                  className={`checklist-item team-member member-${member.status}`}
                  data-testid="team-member"
                  data-name={member.name}
                  data-status={member.status}
                >
                  <span className="team-member-name">{member.name}</span>
                  <span className="dim checklist-text">{member.agent_type}</span>
                  <span className="dim checklist-note" data-testid="team-member-status">
                    {LABELS[member.status]}
                  </span>
                </li>
              ))}
            </ul>
          </div>
        ))}
    </section>
  );
}

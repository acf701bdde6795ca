// Teams as the window shows them: who a sub-agent is (a team member's name, or its type and task), and the teams
// of the session for the components that name members.
import { createContext } from 'react';
import type { SubAgentOrigin, TeamInfo } from '../generated/protocol';

/** The session's teams, for naming members inside nested transcripts. */
export const TeamsContext = createContext<readonly TeamInfo[]>([]);

/** The name of the team member whose conversation is `agentId`, if it is one. */
export function memberName(teams: readonly TeamInfo[], agentId: string): string | null {
  for (const team of teams) {
    const member = team.members.find((each) => each.agent_id === agentId);
    if (member) return member.name;
  }
  return null;
}

/** How a sub-agent is named to the person: `teammate alice (Explore)` or `sub-agent Explore: Find the config`. */
export function originLabel(origin: SubAgentOrigin): string {
  return origin.name ? `teammate ${origin.name} (${origin.agent_type})` : `sub-agent ${origin.agent_type}: ${origin.description}`;
}

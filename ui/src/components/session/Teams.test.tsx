// Teams, briefs and attribution in the window: the team panel lists each team's members with their state; a
// brief is shown apart from the answers; a sub-agent's file change and the changes view name the agent; a call that
// started a team keeps one nested transcript per member, each named, with its own checklist.
import { render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ChangedFile, EventEnvelope, SessionEvent, SubAgentOrigin, TeamInfo } from '../../generated/protocol';
import { applyEvents } from '../../state/reduce';
import { TeamsContext } from '../../state/teams';
import { emptyTranscript, type ToolCall } from '../../state/transcript';
import { ChangesView } from '../panels/ChangesView';
import { Brief } from '../transcript/Messages';
import { TeamPanel } from '../composer/TeamPanel';
import { ToolCallView } from '../transcript/ToolCallView';

const alice: SubAgentOrigin = {
  agent_type: 'general-purpose',
  description: 'member of team crew',
  parent_tool_use_id: 't1',
  agent_id: 'agent-alice',
  name: 'alice',
};

const team = (deleted: boolean): TeamInfo => ({
  name: 'crew',
  description: 'Ship the release',
  lead: 'team-lead',
  deleted,
  members: [
    { name: 'alice', agent_type: 'general-purpose', agent_id: 'agent-alice', status: deleted ? 'stopped' : 'working' },
    { name: 'bob', agent_type: 'Explore', agent_id: 'agent-bob', status: deleted ? 'stopped' : 'idle' },
  ],
});

function fold(events: SessionEvent[]) {
  const envelopes: EventEnvelope[] = events.map((event, seq) => ({ session_id: 's', seq, event }));
  return applyEvents(emptyTranscript(), envelopes);
}

describe('TeamPanel', () => {
  it('lists every member with its type and state, and marks a deleted team', () => {
    const { rerender } = render(<TeamPanel teams={[team(false)]} />);
    const members = screen.getAllByTestId('team-member');
    expect(members.map((m) => m.dataset.status)).toEqual(['working', 'idle']);
    expect(members[1]).toHaveTextContent('bobExploreidle');
    expect(screen.getByTestId('team')).toHaveTextContent('crew led by team-lead');
    rerender(<TeamPanel teams={[team(true)]} />);
    expect(screen.getByTestId('team')).toHaveTextContent('deleted');
    expect(screen.getAllByTestId('team-member-status').map((s) => s.textContent)).toEqual(['stopped', 'stopped']);
  });

  it('is hidden when no team was created', () => {
    render(<TeamPanel teams={[]} />);
    expect(screen.queryByTestId('team-panel')).not.toBeInTheDocument();
  });
});

describe('Brief', () => {
  it('shows the summary as markdown, marked when the agent sent it unasked', async () => {
    render(<Brief message="Tests pass; **one** skipped." status="proactive" />);
    const brief = screen.getByTestId('brief');
    expect(brief).toHaveTextContent('Update from the agent');
    expect((await within(brief).findByText('one')).tagName).toBe('STRONG');
  });

  it('is folded into the transcript as its own item', () => {
    const state = fold([{ type: 'brief', message: 'Done.', status: 'normal' }]);
    expect(state.items).toEqual([{ kind: 'brief', key: '0', message: 'Done.', status: 'normal' }]);
  });
});

describe('attribution', () => {
  it('names the sub-agent on its file change', () => {
    const call: ToolCall = {
      id: 'w1',
      name: 'Write',
      input: { file_path: '/p/notes.txt' },
      hints: { kind: 'edit', title: 'Write notes.txt', collapsible: true },
      status: 'completed',
      decision: null,
      asked: false,
      progress: '',
      result: {
        outcome: 'success',
        content: 'File created',
        detail: {
          type: 'file_change',
          path: '/p/notes.txt',
          created: true,
          replacements: null,
          hunks: [],
          diff: null,
          cell: null,
          changed_by: alice,
        },
      },
    };
    render(<ToolCallView call={call} />);
    expect(screen.getByTestId('tool-changed-by')).toHaveTextContent('Changed by teammate alice (general-purpose)');
  });

  it('names the sub-agents in the changes view', async () => {
    const files: ChangedFile[] = [
      { path: '/p/notes.txt', before: null, after: 'notes\n', omitted: null, changed_by: [alice] },
      { path: '/p/main.rs', before: 'a\n', after: 'b\n', omitted: null },
    ];
    render(<ChangesView load={() => Promise.resolve(files)} root="/p" onClose={() => {}} />);
    await waitFor(() => expect(screen.getAllByTestId('changes-file')).toHaveLength(2));
    const badges = screen.getAllByTestId('changes-by');
    expect(badges).toHaveLength(1);
    expect(badges[0]).toHaveTextContent('alice');
    expect(badges[0]).toHaveAttribute('title', 'teammate alice (general-purpose)');
  });
});

describe('a team call', () => {
  it('keeps one named transcript per member, each with its own checklist', () => {
    const nested = (agent: string, event: SessionEvent): SessionEvent => ({
      type: 'sub_agent',
      parent_tool_use_id: 't1',
      agent_id: agent,
      event,
    });
    const state = fold([
      { type: 'tool_call_started', tool_use_id: 't1', name: 'TeamCreate' },
      { type: 'team_changed', team: team(false) },
      nested('agent-alice', { type: 'text_delta', text: 'alice here' }),
      nested('agent-bob', { type: 'text_delta', text: 'bob here' }),
      nested('agent-bob', { type: 'todos_changed', todos: [{ content: 'Read', status: 'in_progress', active_form: 'Reading' }] }),
    ]);
    expect(state.teams).toEqual([team(false)]);
    const item = state.items[0];
    if (item?.kind !== 'tool') throw new Error('no call');
    expect(item.call.subAgent?.agentId).toBe('agent-alice');
    expect(item.call.otherAgents?.map((o) => o.agentId)).toEqual(['agent-bob']);
    render(
      <TeamsContext.Provider value={state.teams}>
        <ToolCallView call={item.call} />
      </TeamsContext.Provider>,
    );
    expect(screen.getAllByTestId('sub-agent-label').map((l) => l.textContent)).toEqual(['Teammate alice', 'Teammate bob']);
    const [first, second] = screen.getAllByTestId('sub-agent');
    expect(first).toHaveTextContent('alice here');
    expect(within(first as HTMLElement).queryByTestId('checklist')).not.toBeInTheDocument();
    expect(within(second as HTMLElement).getByTestId('checklist')).toHaveTextContent('Reading');
  });
});

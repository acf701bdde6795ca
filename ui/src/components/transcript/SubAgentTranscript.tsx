// A sub-agent's own conversation inside the Agent call that started it: its text and tool calls
// (grouped and collapsed like the main transcript's), collapsible, with a one-line summary while
// closed, and a Stop button while it runs (stopping only this sub-agent); a team member is named, and the
// sub-agent's own checklist shows under its rows. Not virtualised: a sub-agent's transcript is short next to the
// session's.
import { useContext, useMemo } from 'react';
import { StopSubAgentContext } from '../../state/subAgentStop';
import { useExpanded } from '../../state/expansion';
import { buildRows, summarizeCalls } from '../../state/rows';
import type { Transcript } from '../../state/transcript';
import { TeamsContext, memberName } from '../../state/teams';
import { Checklist } from '../composer/Checklist';
import { Chevron } from '../common/Chevron';
import { TranscriptRow } from './TranscriptRow';

export function SubAgentTranscript({ callId, agentId, transcript }: { callId: string; agentId?: string; transcript: Transcript }) {
  const [open, toggle] = useExpanded(agentId ? `sub:${callId}:${agentId}` : `sub:${callId}`, true);
  const teams = useContext(TeamsContext);
  const name = agentId ? memberName(teams, agentId) : null;
  const rows = useMemo(() => buildRows(transcript.items), [transcript.items]);
  const calls = transcript.items.flatMap((item) => (item.kind === 'tool' ? [item.call] : []));
  const stop = useContext(StopSubAgentContext);
  return (
    <div className="sub-agent" data-testid="sub-agent" data-running={transcript.running}>
      <div className="sub-agent-bar">
        <button type="button" className="sub-agent-head" aria-expanded={open} onClick={toggle}>
          <span className="sub-agent-label" data-testid="sub-agent-label">
            {name ? `Teammate ${name}` : 'Sub-agent'}
          </span>
          <span className="dim">{calls.length > 0 ? summarizeCalls(calls) : transcript.running ? 'starting…' : 'no tool calls'}</span>
          <Chevron open={open} />
        </button>
        {stop && transcript.running && (
          <button
            type="button"
            className="button button-ghost sub-agent-stop"
            data-testid="sub-agent-stop"
            title="Stop this sub-agent (the turn goes on)"
            onClick={() => stop(callId)}
          >
            Stop
          </button>
        )}
      </div>
      {open && (
        <div className="sub-agent-rows">
          {rows.map((row) => (
            <TranscriptRow key={row.key} row={row} />
          ))}
          <Checklist todos={transcript.todos} tasks={transcript.tasks} />
        </div>
      )}
    </div>
  );
}

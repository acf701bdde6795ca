// A sub-agent's own conversation inside the Agent call that started it: its text and tool calls
// (grouped and collapsed like the main transcript's), collapsible, with a one-line summary while
// closed, and a Stop button while it runs (stopping only this sub-agent); a team member is named, and the
// sub-agent's own checklist shows under its rows.
import { useContext } from 'react';
import { StopSubAgentContext } from '../../state/subAgentStop';
import { summarizeCalls } from '../../state/rows';
import type { Transcript } from '../../state/transcript';
import { TeamsContext, memberName } from '../../state/teams';
import { Checklist } from '../composer/Checklist';
import { NestedTranscript } from './NestedTranscript';

export function SubAgentTranscript({ callId, agentId, transcript }: { callId: string; agentId?: string; transcript: Transcript }) {
  const teams = useContext(TeamsContext);
  const name = agentId ? memberName(teams, agentId) : null;
  const calls = transcript.items.flatMap((item) => (item.kind === 'tool' ? [item.call] : []));
  const stop = useContext(StopSubAgentContext);
  return (
    <NestedTranscript
      expandKey={agentId ? `sub:${callId}:${agentId}` : `sub:${callId}`}
      className="sub-agent"
      testId="sub-agent"
      running={transcript.running}
      label={
        <span className="sub-agent-label" data-testid="sub-agent-label">
          {name ? `Teammate ${name}` : 'Sub-agent'}
        </span>
      }
      summary={calls.length > 0 ? summarizeCalls(calls) : transcript.running ? 'starting…' : 'no tool calls'}
      action={
        stop &&
        transcript.running && (
          <button
            type="button"
            className="button button-ghost sub-agent-stop"
            data-testid="sub-agent-stop"
            title="Stop this sub-agent (the turn goes on)"
            onClick={() => stop(callId)}
          >
            Stop
          </button>
        )
      }
      transcript={transcript}
      footer={<Checklist todos={transcript.todos} tasks={transcript.tasks} />}
    />
  );
}

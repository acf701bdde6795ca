// The calls a call made (a REPL program's tool functions, a workflow's steps), inside that call: each a row of
// its own (grouped and collapsed like the main transcript's), collapsible, with a one-line summary while closed.
import { summarizeCalls } from '../../state/rows';
import type { Transcript } from '../../state/transcript';
import { NestedTranscript } from './NestedTranscript';

export function InnerCalls({ callId, transcript }: { callId: string; transcript: Transcript }) {
  const calls = transcript.items.flatMap((item) => (item.kind === 'tool' ? [item.call] : []));
  return (
    <NestedTranscript
      expandKey={`inner:${callId}`}
      className="sub-agent inner-calls"
      testId="inner-calls"
      label={<span className="sub-agent-label">Calls it made</span>}
      summary={summarizeCalls(calls)}
      transcript={transcript}
    />
  );
}

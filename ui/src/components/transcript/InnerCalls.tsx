// The calls a call made (a REPL program's tool functions, a workflow's steps), inside that call: each a row of
// its own (grouped and collapsed like the main transcript's), collapsible, with a one-line summary while closed.
import { useMemo } from 'react';
import { useExpanded } from '../../state/expansion';
import { buildRows, summarizeCalls } from '../../state/rows';
import type { Transcript } from '../../state/transcript';
import { Chevron } from '../common/Chevron';
import { TranscriptRow } from './TranscriptRow';

export function InnerCalls({ callId, transcript }: { callId: string; transcript: Transcript }) {
  const [open, toggle] = useExpanded(`inner:${callId}`, true);
  const rows = useMemo(() => buildRows(transcript.items), [transcript.items]);
  const calls = transcript.items.flatMap((item) => (item.kind === 'tool' ? [item.call] : []));
  return (
    <div className="sub-agent inner-calls" data-testid="inner-calls">
      <div className="sub-agent-bar">
        <button type="button" className="sub-agent-head" aria-expanded={open} onClick={toggle}>
          <span className="sub-agent-label">Calls it made</span>
          <span className="dim">{summarizeCalls(calls)}</span>
          <Chevron open={open} />
        </button>
      </div>
      {open && (
        <div className="sub-agent-rows">
          {rows.map((row) => (
            <TranscriptRow key={row.key} row={row} />
          ))}
        </div>
      )}
    </div>
  );
}

// A transcript nested inside the call that holds it (a sub-agent's conversation, the calls a REPL program or a
// workflow made): a collapsible bar with a label, a one-line summary and an optional action beside it, then its rows
// (grouped and collapsed like the main transcript's) and anything the caller puts under them. Not virtualised: a
// nested transcript is short next to the session's.
import { useMemo, type ReactNode } from 'react';
import { useExpanded } from '../../state/expansion';
import { buildRows } from '../../state/rows';
import type { Transcript } from '../../state/transcript';
import { Chevron } from '../common/Chevron';
import { TranscriptRow } from './TranscriptRow';

export type NestedTranscriptProps = {
  /** Remembers whether it is open (open at first). */
  expandKey: string;
  className: string;
  testId: string;
  running?: boolean;
  label: ReactNode;
  summary: string;
  /** Beside the bar's toggle (a Stop button). */
  action?: ReactNode;
  transcript: Transcript;
  /** Under the rows while open. */
  footer?: ReactNode;
};

export function NestedTranscript({ expandKey, className, testId, running, label, summary, action, transcript, footer }: NestedTranscriptProps) {
  const [open, toggle] = useExpanded(expandKey, true);
  const rows = useMemo(() => buildRows(transcript.items), [transcript.items]);
  return (
    <div className={className} data-testid={testId} data-running={running}>
      <div className="sub-agent-bar">
        <button type="button" className="sub-agent-head" aria-expanded={open} onClick={toggle}>
          {label}
          <span className="dim">{summary}</span>
          <Chevron open={open} />
        </button>
        {action}
      </div>
      {open && (
        <div className="sub-agent-rows">
          {rows.map((row) => (
            <TranscriptRow key={row.key} row={row} />
          ))}
          {footer}
        </div>
      )}
    </div>
  );
}

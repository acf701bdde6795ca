// A run of consecutive read-only tool calls folded into one summary line ("Read 3 files,
// searched 2 patterns") that expands into the individual calls.
import { memo } from 'react';
import { useExpanded } from '../../state/expansion';
import { summarizeCalls } from '../../state/rows';
import type { ToolCall } from '../../state/transcript';
import { groupVisualState, visualState } from '../../state/toolState';
import { Chevron } from '../common/Chevron';
import { StatusIcon } from './StatusIcon';
import { ToolCallView } from './ToolCallView';

export const ToolGroup = memo(function ToolGroup({
  groupKey,
  calls,
}: {
  groupKey: string;
  calls: readonly ToolCall[];
}) {
  const [open, toggle] = useExpanded(groupKey);
  const state = groupVisualState(calls);
  const active = calls.find((call) => visualState(call) === 'running');
  return (
    <div className={`tool-group state-${state}`} data-testid="tool-group" data-state={state}>
      <button type="button" className="tool-head" aria-expanded={open} onClick={toggle}>
        <StatusIcon state={state} />
        <span className="tool-title" data-testid="tool-group-summary">
          {summarizeCalls(calls)}
        </span>
        {active && <span className="tool-state-label">{active.hints?.title ?? active.name}</span>}
        <Chevron open={open} />
      </button>
      {open && (
        <div className="tool-group-calls">
          {calls.map((call) => (
            <ToolCallView key={call.id} call={call} />
          ))}
        </div>
      )}
    </div>
  );
});

// One visual state per tool call (and per group of calls), combining its status and outcome, so
// every component draws queued / waiting / running / success / error / denied / cancelled alike.
import type { ToolCall } from './transcript';

export type ToolVisualState =
  | 'queued'
  | 'waiting'
  | 'running'
  | 'success'
  | 'error'
  | 'denied'
  | 'cancelled';

export function visualState(call: ToolCall): ToolVisualState {
  if (call.result) return call.result.outcome;
  switch (call.status) {
    case 'queued':
      return 'queued';
    case 'waiting_for_approval':
      return 'waiting';
    case 'executing':
      return 'running';
    case 'completed':
      return 'success';
  }
}

const GROUP_PRIORITY: readonly ToolVisualState[] = [
  'waiting',
  'running',
  'queued',
  'error',
  'denied',
  'cancelled',
  'success',
];

/** The state that matters most in a group: anything still going on, then any failure. */
export function groupVisualState(calls: readonly ToolCall[]): ToolVisualState {
  const states = new Set(calls.map(visualState));
  return GROUP_PRIORITY.find((state) => states.has(state)) ?? 'success';
}

export const STATE_LABELS: Record<ToolVisualState, string> = {
  queued: 'Queued',
  waiting: 'Waiting for approval',
  running: 'Running',
  success: 'Done',
  error: 'Failed',
  denied: 'Denied',
  cancelled: 'Cancelled',
};

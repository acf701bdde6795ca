// The icon of a tool call's visual state: each of queued / waiting / running / success / error /
// denied / cancelled is drawn distinctly (shape and colour), running as a spinner.
import type { ToolVisualState } from '../../state/toolState';
import { STATE_LABELS } from '../../state/toolState';

const PATHS: Record<ToolVisualState, React.ReactNode> = {
  queued: <circle cx="8" cy="8" r="5.5" fill="none" strokeDasharray="2.2 2.2" />,
  waiting: (
    <>
      <circle cx="8" cy="8" r="6" fill="none" />
      <path d="M8 4.5v4" fill="none" />
      <circle cx="8" cy="11.2" r="0.6" />
    </>
  ),
  running: <path d="M8 2a6 6 0 1 1-6 6" fill="none" />,
  success: <path d="M3.5 8.5l3 3 6-7" fill="none" />,
  error: <path d="M4 4l8 8M12 4l-8 8" fill="none" />,
  denied: (
    <>
      <circle cx="8" cy="8" r="6" fill="none" />
      <path d="M3.8 12.2l8.4-8.4" fill="none" />
    </>
  ),
  cancelled: <rect x="4" y="4" width="8" height="8" rx="1.5" fill="none" />,
};

export function StatusIcon({ state }: { state: ToolVisualState }) {
  return (
    <svg
      className={`status-icon status-${state}`}
      data-testid="status-icon"
      data-state={state}
      viewBox="0 0 16 16"
      width="14"
      height="14"
      role="img"
      aria-label={STATE_LABELS[state]}
    >
      <title>{STATE_LABELS[state]}</title>
      <g stroke="currentColor" fill="currentColor" strokeWidth="1.8" strokeLinecap="round">
        {PATHS[state]}
      </g>
    </svg>
  );
}

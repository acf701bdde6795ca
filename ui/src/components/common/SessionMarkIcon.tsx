// The mark of an open session in its tab and in the sidebar: a small spinner while a turn runs, a filled dot in
// the waiting colour (pulsing) while a dialog waits for the person. Drawn in CSS and SVG, no glyph.
import { MARK_LABELS, type SessionMark } from '../../state/openSessions';

export function SessionMarkIcon({ mark }: { mark: Exclude<SessionMark, null> }) {
  const label = MARK_LABELS[mark];
  if (mark === 'running') {
    return <span className="session-mark spinner is-small" data-testid="mark-running" role="img" aria-label={label} title={label} />;
  }
  return (
    <span className="session-mark is-waiting" data-testid="mark-waiting" role="img" aria-label={label} title={label}>
      <svg viewBox="0 0 10 10" width="10" height="10" aria-hidden="true">
        <circle cx="5" cy="5" r="4" fill="currentColor" />
      </svg>
    </span>
  );
}

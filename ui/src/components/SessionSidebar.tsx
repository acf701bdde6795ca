// The sessions sidebar: the open folder's sessions newest first (title, when, how many
// messages), the current one highlighted, any other reopened with a click, and New Session.
// Collapses to a narrow rail; the choice is remembered.
import { useEffect, useState } from 'react';
import type { SessionSummary } from '../generated/protocol';
import { formatRelativeTime } from '../format';
import { usePersistentFlag } from '../hooks/usePersistentFlag';

export type SessionSidebarProps = {
  sessions: readonly SessionSummary[];
  currentId: string;
  /** Why the list could not be loaded, if it could not. */
  error: string | null;
  onOpen: (sessionId: string) => void;
  onNew: () => void;
};

export function SessionSidebar({ sessions, currentId, error, onOpen, onNew }: SessionSidebarProps) {
  const [collapsed, toggle] = usePersistentFlag('tandem.sidebarCollapsed', false);
  const now = useNow(60_000);
  // A new session is listed once it has a prompt; until then it shows here on its own.
  const listed = sessions.some((each) => each.session_id === currentId)
    ? sessions
    : [{ session_id: currentId, title: 'New session', updated_at_ms: now, message_count: 0 }, ...sessions];

  return (
    <nav
      className={`session-sidebar${collapsed ? ' is-collapsed' : ''}`}
      data-testid="session-sidebar"
      data-collapsed={collapsed}
      aria-label="Sessions"
    >
      <div className="sidebar-head">
        <button
          type="button"
          className="sidebar-icon-button"
          data-testid="session-sidebar-toggle"
          aria-expanded={!collapsed}
          title={collapsed ? 'Show sessions' : 'Hide sessions'}
          onClick={toggle}
        >
          <SidebarIcon />
        </button>
        {!collapsed && <span className="sidebar-title">Sessions</span>}
        <button
          type="button"
          className={collapsed ? 'sidebar-icon-button' : 'button button-ghost sidebar-new'}
          data-testid="new-session-button"
          title="New Session"
          onClick={onNew}
        >
          <span aria-hidden="true">＋</span>
          {!collapsed && ' New Session'}
        </button>
      </div>
      {!collapsed && (
        <ul className="session-list">
          {error && <li className="session-list-error">{error}</li>}
          {listed.map((each) => {
            const current = each.session_id === currentId;
            return (
              <li key={each.session_id}>
                <button
                  type="button"
                  className={`session-item${current ? ' is-current' : ''}`}
                  data-testid="session-item"
                  data-session-id={each.session_id}
                  aria-current={current ? 'true' : undefined}
                  title={each.title}
                  onClick={() => !current && onOpen(each.session_id)}
                >
                  <span className="session-item-title">{each.title}</span>
                  <span className="session-item-meta">
                    {formatRelativeTime(each.updated_at_ms, now)} · {each.message_count}{' '}
                    {each.message_count === 1 ? 'message' : 'messages'}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </nav>
  );
}

/** The current time, updated every `interval` ms (for relative times). */
function useNow(interval: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), interval);
    return () => clearInterval(timer);
  }, [interval]);
  return now;
}

function SidebarIcon() {
  return (
    <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
      <rect x="1.5" y="2.5" width="13" height="11" rx="2" fill="none" stroke="currentColor" strokeWidth="1.3" />
      <path d="M6 2.5v11" stroke="currentColor" strokeWidth="1.3" />
    </svg>
  );
}

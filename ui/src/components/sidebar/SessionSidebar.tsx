// The sessions sidebar: the open folder's sessions newest first (title, when, how many
// messages), the current one highlighted, any other reopened with a click, and New Session.
// A search box filters by title; each stored session can be renamed (double-click or the pencil; Enter
// saves, Esc cancels) and any but the current one deleted (the bin, then Delete to confirm).
// Collapses to a narrow rail; the choice is remembered.
import { useEffect, useState } from 'react';
import type { SessionSummary } from '../../generated/protocol';
import { formatRelativeTime } from '../../format';
import { errorMessage } from '../../ipc';
import { usePersistentFlag } from '../../hooks/usePersistentFlag';
import { Icon } from '../common/Icon';

export type SessionSidebarProps = {
  sessions: readonly SessionSummary[];
  currentId: string;
  /** Why the list could not be loaded, if it could not. */
  error: string | null;
  onOpen: (sessionId: string) => void;
  onNew: () => void;
  /** Renames a stored session; rejects with the backend's error. */
  onRename?: (sessionId: string, title: string) => Promise<void>;
  /** Deletes a stored session; rejects with the backend's error. */
  onDelete?: (sessionId: string) => Promise<void>;
};

export function SessionSidebar({ sessions, currentId, error, onOpen, onNew, onRename, onDelete }: SessionSidebarProps) {
  const [collapsed, toggle] = usePersistentFlag('tandem.sidebarCollapsed', false);
  const now = useNow(60_000);
  const [query, setQuery] = useState('');
  const [renaming, setRenaming] = useState<{ id: string; title: string } | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const stored = new Set(sessions.map((each) => each.session_id));
  // A new session is listed once it has a prompt; until then it shows here on its own.
  const all = stored.has(currentId)
    ? sessions
    : [{ session_id: currentId, title: 'New session', updated_at_ms: now, message_count: 0 }, ...sessions];
  const needle = query.trim().toLowerCase();
  const listed = needle ? all.filter((each) => each.title.toLowerCase().includes(needle)) : all;

  const act = async (action: () => Promise<void>) => {
    setActionError(null);
    try {
      await action();
    } catch (cause) {
      setActionError(errorMessage(cause));
    }
  };
  const saveRename = () => {
    if (!renaming || !onRename) return;
    const { id, title } = renaming;
    setRenaming(null);
    if (title.trim()) void act(() => onRename(id, title.trim()));
  };

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
          <Icon name="plus" />
          {!collapsed && ' New Session'}
        </button>
      </div>
      {!collapsed && sessions.length > 3 && (
        <input
          className="session-search"
          data-testid="session-search"
          type="search"
          placeholder="Search sessions"
          aria-label="Search sessions"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
      )}
      {!collapsed && (
        <ul className="session-list">
          {error && <li className="session-list-error">{error}</li>}
          {actionError && (
            <li className="session-list-error" data-testid="session-action-error">
              {actionError}
            </li>
          )}
          {needle && listed.length === 0 && <li className="session-list-empty dim">No session matches “{query.trim()}”</li>}
          {listed.map((each) => {
            const current = each.session_id === currentId;
            const isStored = stored.has(each.session_id);
            if (renaming?.id === each.session_id) {
              return (
                <li key={each.session_id}>
                  <input
                    className="session-rename"
                    data-testid="session-rename-input"
                    aria-label="Session title"
                    autoFocus
                    value={renaming.title}
                    onChange={(event) => setRenaming({ id: each.session_id, title: event.target.value })}
                    onBlur={saveRename}
                    onKeyDown={(event) => {
                      if (event.key === 'Enter') saveRename();
                      else if (event.key === 'Escape') setRenaming(null);
                    }}
                  />
                </li>
              );
            }
            return (
              <li key={each.session_id} className="session-row">
                <button
                  type="button"
                  className={`session-item${current ? ' is-current' : ''}`}
                  data-testid="session-item"
                  data-session-id={each.session_id}
                  aria-current={current ? 'true' : undefined}
                  title={each.title}
                  onClick={() => !current && onOpen(each.session_id)}
                  onDoubleClick={() => isStored && onRename && setRenaming({ id: each.session_id, title: each.title })}
                >
                  <span className="session-item-title">{each.title}</span>
                  <span className="session-item-meta">
                    {formatRelativeTime(each.updated_at_ms, now)} · {each.message_count}{' '}
                    {each.message_count === 1 ? 'message' : 'messages'}
                  </span>
                </button>
                {isStored && (
                  <span className="session-actions">
                    {deleting === each.session_id ? (
                      <>
                        <button
                          type="button"
                          className="button button-danger session-action"
                          data-testid="session-delete-confirm"
                          onClick={() => {
                            setDeleting(null);
                            if (onDelete) void act(() => onDelete(each.session_id));
                          }}
                        >
                          Delete
                        </button>
                        <button type="button" className="button session-action" onClick={() => setDeleting(null)}>
                          Keep
                        </button>
                      </>
                    ) : (
                      <>
                        {onRename && (
                          <button
                            type="button"
                            className="sidebar-icon-button session-action"
                            data-testid="session-rename"
                            title="Rename"
                            onClick={() => setRenaming({ id: each.session_id, title: each.title })}
                          >
                            <Icon name="pencil" />
                          </button>
                        )}
                        {onDelete && !current && (
                          <button
                            type="button"
                            className="sidebar-icon-button session-action"
                            data-testid="session-delete"
                            title="Delete this session"
                            onClick={() => setDeleting(each.session_id)}
                          >
                            <Icon name="trash" />
                          </button>
                        )}
                      </>
                    )}
                  </span>
                )}
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

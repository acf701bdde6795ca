// The tab strip above the session view: one tab per open session — its folder, its first prompt, a spinner while a
// turn runs and a dot while a dialog waits for the person — the shown one highlighted, each closed with its ×, and
// + for a new session in the shown tab's folder ("with…" beside it: one whose turns an external agent runs). Clicking a
// tab shows it.
import { MARK_LABELS, type SessionMark } from '../../state/openSessions';
import { Icon } from '../common/Icon';
import { SessionMarkIcon } from '../common/SessionMarkIcon';

export type TabView = {
  sessionId: string;
  folderName: string;
  cwd: string;
  /** The session's first prompt, or null for a session nothing was sent in yet. */
  title: string | null;
  mark: SessionMark;
};

export type SessionTabsProps = {
  tabs: readonly TabView[];
  active: string | null;
  onActivate: (sessionId: string) => void;
  onClose: (sessionId: string) => void;
  onNew: () => void;
  /** "New Session with…": a session of the shown tab's folder whose turns an external agent runs. */
  onNewWith?: () => void;
};

export function SessionTabs({ tabs, active, onActivate, onClose, onNew, onNewWith }: SessionTabsProps) {
  return (
    <div className="session-tabs" role="tablist" aria-label="Open sessions" data-testid="session-tabs">
      {tabs.map((tab) => {
        const shown = tab.sessionId === active;
        const title = tab.title ?? 'New session';
        const state = tab.mark ? ` — ${MARK_LABELS[tab.mark]}` : '';
        return (
          <div
            key={tab.sessionId}
            className={`session-tab${shown ? ' is-shown' : ''}${tab.mark ? ` is-${tab.mark}` : ''}`}
            data-testid="session-tab"
            data-session-id={tab.sessionId}
            data-mark={tab.mark ?? undefined}
            data-shown={shown ? 'true' : 'false'}
          >
            <button
              type="button"
              role="tab"
              aria-selected={shown}
              className="session-tab-button"
              title={`${tab.cwd}\n${title}${state}`}
              onClick={() => onActivate(tab.sessionId)}
              onAuxClick={(event) => {
                if (event.button === 1) onClose(tab.sessionId);
              }}
            >
              {tab.mark && <SessionMarkIcon mark={tab.mark} />}
              <span className="session-tab-folder">{tab.folderName}</span>
              <span className="session-tab-title">{title}</span>
            </button>
            <button
              type="button"
              className="session-tab-close"
              data-testid="session-tab-close"
              aria-label={`Close ${tab.folderName}: ${title}`}
              title="Close (Ctrl+W)"
              onClick={() => onClose(tab.sessionId)}
            >
              <Icon name="cross" />
            </button>
          </div>
        );
      })}
      <button type="button" className="session-tab-new" data-testid="session-tab-new" aria-label="New session" title="New session in this folder (Ctrl+N)" onClick={onNew}>
        <Icon name="plus" />
      </button>
      {onNewWith && (
        <button
          type="button"
          className="session-tab-new session-tab-new-with"
          data-testid="session-tab-new-with"
          aria-label="New session with an agent…"
          title="New session with an external agent in this folder"
          onClick={onNewWith}
        >
          with…
        </button>
      )}
    </div>
  );
}

// One session in the sidebar: its title, when, how many messages, a pin mark, a mark while it is open in a tab and
// runs a turn or waits for the person, and its tags as chips (a click on a chip filters by it). It can be dragged onto a folder; right-click opens its menu; the pencil renames it and the bin
// deletes it (confirmed); an input for its tags or its new title replaces it while it is edited.
import type { SessionSummary } from '../../generated/protocol';
import { formatRelativeTime } from '../../format';
import type { SessionMark } from '../../state/openSessions';
import { SessionMarkIcon } from '../common/SessionMarkIcon';
import { Icon } from '../common/Icon';

export type SessionRowProps = {
  session: SessionSummary;
  current: boolean;
  /** Whether it is open in a tab of the window. */
  inTab?: boolean;
  /** While open in a tab: whether it runs a turn or waits for the person. */
  mark?: SessionMark;
  stored: boolean;
  now: number;
  depth: number;
  /** What replaces the row while it is being edited (its title or tags). */
  editor: React.ReactNode;
  deleting: boolean;
  /** Its context menu is open. */
  menuOpen?: boolean;
  onOpen: () => void;
  onMenu: (x: number, y: number) => void;
  onRename?: () => void;
  onAskDelete?: () => void;
  onDelete: () => void;
  onKeep: () => void;
  onTag: (tag: string) => void;
  onRestore?: () => void;
};

export function SessionRow(props: SessionRowProps) {
  const { session: each, current, stored, now, depth, editor, deleting } = props;
  if (editor) return <li style={{ paddingLeft: depth * 12 }}>{editor}</li>;
  return (
    <li
      className={each.archived ? 'session-row is-archived' : 'session-row'}
      style={{ paddingLeft: depth * 12 }}
      draggable={stored}
      data-testid="session-row"
      data-session-id={each.session_id}
      onDragStart={(event) => {
        event.dataTransfer.setData('application/x-tandem-session', each.session_id);
        event.dataTransfer.effectAllowed = 'move';
      }}
      onContextMenu={(event) => {
        if (!stored) return;
        event.preventDefault();
        props.onMenu(event.clientX, event.clientY);
      }}
    >
      <button
        type="button"
        className={`session-item${current ? ' is-current' : ''}`}
        data-testid="session-item"
        data-session-id={each.session_id}
        data-pinned={each.pinned ? 'true' : undefined}
        data-open={props.inTab ? 'true' : undefined}
        data-mark={props.mark ?? undefined}
        aria-current={current ? 'true' : undefined}
        // No tooltip while the row's menu is open: it would cover the menu's first items.
        title={props.menuOpen ? undefined : each.title}
        onClick={() => !current && props.onOpen()}
        onDoubleClick={() => props.onRename?.()}
      >
        <span className="session-item-title">
          {each.pinned && (
            <span className="session-pin" data-testid="session-pin" title="Pinned" aria-label="Pinned">
              <PinIcon />
            </span>
          )}
          {props.mark && <SessionMarkIcon mark={props.mark} />}
          {each.title}
        </span>
        <span className="session-item-meta">
          {formatRelativeTime(each.updated_at_ms, now)} · {each.message_count} {each.message_count === 1 ? 'message' : 'messages'}
        </span>
      </button>
      {each.tags.length > 0 && (
        <span className="session-tags">
          {each.tags.map((tag) => (
            <button key={tag} type="button" className="tag-chip" data-testid="tag-chip" title={`Show sessions tagged ${tag}`} onClick={() => props.onTag(tag)}>
              {tag}
            </button>
          ))}
        </span>
      )}
      {stored && (
        <span className="session-actions">
          {deleting ? (
            <>
              <button type="button" className="button button-danger session-action" data-testid="session-delete-confirm" onClick={props.onDelete}>
                Delete
              </button>
              <button type="button" className="button session-action" onClick={props.onKeep}>
                Keep
              </button>
            </>
          ) : (
            <>
              {props.onRestore && (
                <button type="button" className="button session-action" data-testid="session-restore" onClick={props.onRestore}>
                  Restore
                </button>
              )}
              <button
                type="button"
                className="sidebar-icon-button session-action"
                data-testid="session-menu"
                title="More"
                aria-haspopup="menu"
                onClick={(event) => {
                  const box = event.currentTarget.getBoundingClientRect();
                  props.onMenu(box.left, box.bottom);
                }}
              >
                <Icon name="more" />
              </button>
              {props.onRename && (
                <button type="button" className="sidebar-icon-button session-action" data-testid="session-rename" title="Rename" onClick={props.onRename}>
                  <Icon name="pencil" />
                </button>
              )}
              {props.onAskDelete && !current && (
                <button
                  type="button"
                  className="sidebar-icon-button session-action"
                  data-testid="session-delete"
                  title="Delete this session"
                  onClick={props.onAskDelete}
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
}

function PinIcon() {
  return (
    <svg viewBox="0 0 16 16" width="10" height="10" aria-hidden="true">
      <path d="M6 1.5h4l-.6 4 2.6 2.5v1H8.6V15h-1.2V9H4v-1l2.6-2.5z" fill="currentColor" />
    </svg>
  );
}

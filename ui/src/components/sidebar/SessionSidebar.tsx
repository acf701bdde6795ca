// The sessions sidebar: the open folder's sessions in their folders (collections, nested and collapsible), the pinned
// first, the current one highlighted, those open in other tabs marked (running, or waiting for the person), any other
// shown with a click (its tab, or a new one), and New Session (a new tab). A search box filters by
// title and a tag chip by tag; each stored session can be renamed (double-click or the pencil; Enter saves, Esc
// cancels), deleted (the bin, then Delete), and through its menu (right-click or the dots) pinned, tagged, moved to a
// folder, put in a new folder, archived or exported (Markdown, HTML, JSON lines). Sessions are dragged onto a folder (or onto "Sessions" for the top level);
// a folder's menu makes a folder inside it, renames or deletes it (what it held moves up). Archived sessions are
// listed under "Archived", shown on request, each restorable. Collapses to a narrow rail; the choice is remembered.
import { useEffect, useMemo, useState } from 'react';
import type { SessionCollection, SessionSummary } from '../../generated/protocol';
import type { SessionMark } from '../../state/openSessions';
import { errorMessage, type ExportFormat } from '../../ipc';
import { usePersistentFlag } from '../../hooks/usePersistentFlag';
import { buildTree, flatFolders, parseTags, type FolderNode } from '../../state/sidebarTree';
import { Chevron } from '../common/Chevron';
import { Icon } from '../common/Icon';
import { SessionRow } from './SessionRow';
import { SidebarMenu, type MenuItem } from './SidebarMenu';

/** What organising a session or a folder does; each rejects with the backend's error. */
export type OrganiseActions = {
  pin: (sessionId: string, pinned: boolean) => Promise<void>;
  archive: (sessionId: string, archived: boolean) => Promise<void>;
  setTags: (sessionId: string, tags: string[]) => Promise<void>;
  moveSession: (sessionId: string, collectionId: number | null) => Promise<void>;
  /** Makes a folder; resolves to it. */
  createFolder: (name: string, parentId: number | null) => Promise<SessionCollection>;
  renameFolder: (id: number, name: string) => Promise<void>;
  deleteFolder: (id: number) => Promise<void>;
};

export type SessionSidebarProps = {
  sessions: readonly SessionSummary[];
  currentId: string;
  /** The sessions open in the window's tabs with their marks, by id (an open session is not deleted from here). */
  openMarks?: ReadonlyMap<string, SessionMark>;
  /** Why the list could not be loaded, if it could not. */
  error: string | null;
  onOpen: (sessionId: string) => void;
  onNew: () => void;
  /** Renames a stored session; rejects with the backend's error. */
  onRename?: (sessionId: string, title: string) => Promise<void>;
  /** Deletes a stored session; rejects with the backend's error. */
  onDelete?: (sessionId: string) => Promise<void>;
  /** The folder's collections (the folders of the sidebar). */
  collections?: readonly SessionCollection[];
  organise?: OrganiseActions;
  /** Exports a stored session to a file the person chooses; resolves to its path, or null when cancelled. */
  onExport?: (sessionId: string, format: ExportFormat) => Promise<string | null>;
};

const EXPORTS: readonly { format: ExportFormat; label: string }[] = [
  { format: 'md', label: 'Export as Markdown…' },
  { format: 'html', label: 'Export as HTML…' },
  { format: 'jsonl', label: 'Export as JSON lines…' },
];

type Editing =
  | { kind: 'rename'; id: string; text: string }
  | { kind: 'tags'; id: string; text: string }
  | { kind: 'new-folder'; parentId: number | null; moving: string | null; text: string }
  | { kind: 'rename-folder'; id: number; text: string };

const SESSION_TYPE = 'application/x-tandem-session';

export function SessionSidebar(props: SessionSidebarProps) {
  const { sessions, currentId, openMarks, error, onOpen, onNew, onRename, onDelete, collections = [], organise, onExport } = props;
  const [collapsed, toggle] = usePersistentFlag('tandem.sidebarCollapsed', false);
  const [showArchived, toggleArchived] = usePersistentFlag('tandem.sidebarArchived', false);
  const now = useNow(60_000);
  const [query, setQuery] = useState('');
  const [tag, setTag] = useState<string | null>(null);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  /** The open context menu; `sessionId`: the session row it is for (whose tooltip would cover it). */
  const [menu, setMenu] = useState<{ x: number; y: number; items: MenuItem[]; label: string; sessionId?: string } | null>(null);
  const [closed, setClosed] = useState<ReadonlySet<number>>(() => readClosed());
  const [dropAt, setDropAt] = useState<number | 'top' | null>(null);
  const stored = useMemo(() => new Set(sessions.map((each) => each.session_id)), [sessions]);
  // A new session is listed once it has a prompt; until then it shows here on its own.
  const all: readonly SessionSummary[] = useMemo(
    () =>
      stored.has(currentId)
        ? sessions
        : [
            { session_id: currentId, title: 'New session', updated_at_ms: now, message_count: 0, pinned: false, archived: false, tags: [], collection_id: null },
            ...sessions,
          ],
    [stored, currentId, sessions, now],
  );
  const tree = useMemo(() => buildTree(all, collections, { tag, title: query }), [all, collections, tag, query]);
  const folderChoices = useMemo(() => flatFolders(buildTree(all, collections).folders), [all, collections]);
  const filtering = query.trim() !== '' || tag !== null;

  const act = async (action: () => Promise<unknown>) => {
    setActionError(null);
    setNotice(null);
    try {
      await action();
    } catch (cause) {
      setActionError(errorMessage(cause));
    }
  };
  const toggleFolder = (id: number) => {
    const next = new Set(closed);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setClosed(next);
    writeClosed(next);
  };
  const saveEdit = () => {
    if (!editing) return;
    setEditing(null);
    const text = editing.text.trim();
    if (editing.kind === 'rename' && onRename && text) void act(() => onRename(editing.id, text));
    if (!organise) return;
    if (editing.kind === 'tags') void act(() => organise.setTags(editing.id, parseTags(editing.text)));
    if (editing.kind === 'rename-folder' && text) void act(() => organise.renameFolder(editing.id, text));
    if (editing.kind === 'new-folder' && text) {
      const { parentId, moving } = editing;
      void act(async () => {
        const made = await organise.createFolder(text, parentId);
        if (moving) await organise.moveSession(moving, made.id);
      });
    }
  };
  const editor = (placeholder: string, testId: string) =>
    editing && (
      <input
        className="session-rename"
        data-testid={testId}
        aria-label={placeholder}
        placeholder={placeholder}
        autoFocus
        value={editing.text}
        onChange={(event) => setEditing({ ...editing, text: event.target.value })}
        onBlur={saveEdit}
        onKeyDown={(event) => {
          if (event.key === 'Enter') saveEdit();
          else if (event.key === 'Escape') setEditing(null);
        }}
      />
    );

  const exportItems = (id: string): MenuItem[] =>
    onExport && stored.has(id)
      ? EXPORTS.map(({ format, label }) => ({
          label,
          testId: `menu-export-${format}`,
          run: () =>
            void act(async () => {
              const path = await onExport(id, format);
              if (path) setNotice(`Exported to ${path}`);
            }),
        }))
      : [];
  const sessionMenu = (each: SessionSummary): MenuItem[] => [...organiseItems(each), ...exportItems(each.session_id)];
  const organiseItems = (each: SessionSummary): MenuItem[] => {
    if (!organise) return [];
    const id = each.session_id;
    const moves: MenuItem[] = [
      { label: 'Move to: top level', testId: 'menu-move-top', run: () => void act(() => organise.moveSession(id, null)), disabled: each.collection_id === null },
      ...folderChoices.map(({ collection, depth }) => ({
        label: `Move to: ${collection.name}`,
        testId: `menu-move-${collection.id}`,
        depth,
        disabled: each.collection_id === collection.id,
        run: () => void act(() => organise.moveSession(id, collection.id)),
      })),
    ];
    return [
      { label: each.pinned ? 'Unpin' : 'Pin', testId: 'menu-pin', run: () => void act(() => organise.pin(id, !each.pinned)) },
      { label: 'Tags…', testId: 'menu-tags', run: () => setEditing({ kind: 'tags', id, text: each.tags.join(', ') }) },
      ...moves,
      { label: 'New folder with it…', testId: 'menu-new-folder', run: () => setEditing({ kind: 'new-folder', parentId: each.collection_id, moving: id, text: '' }) },
      each.archived
        ? { label: 'Restore', testId: 'menu-restore', run: () => void act(() => organise.archive(id, false)) }
        : { label: 'Archive', testId: 'menu-archive', run: () => void act(() => organise.archive(id, true)), disabled: id === currentId },
    ];
  };
  const folderMenu = (node: FolderNode): MenuItem[] => {
    if (!organise) return [];
    const { id, name } = node.collection;
    return [
      { label: 'New folder inside…', testId: 'menu-new-subfolder', run: () => setEditing({ kind: 'new-folder', parentId: id, moving: null, text: '' }) },
      { label: 'Rename folder…', testId: 'menu-rename-folder', run: () => setEditing({ kind: 'rename-folder', id, text: name }) },
      { label: 'Delete folder (its sessions move up)', testId: 'menu-delete-folder', run: () => void act(() => organise.deleteFolder(id)) },
    ];
  };

  const drop = (target: number | null) => ({
    onDragOver: (event: React.DragEvent) => {
      if (!organise || !event.dataTransfer.types.includes(SESSION_TYPE)) return;
      // The innermost target takes it: a folder inside the list is not also the list's top level.
      event.preventDefault();
      event.stopPropagation();
      event.dataTransfer.dropEffect = 'move';
      setDropAt(target ?? 'top');
    },
    onDragLeave: () => setDropAt(null),
    onDrop: (event: React.DragEvent) => {
      const id = event.dataTransfer.getData(SESSION_TYPE);
      setDropAt(null);
      if (!organise || !id) return;
      event.preventDefault();
      event.stopPropagation();
      void act(() => organise.moveSession(id, target));
    },
  });

  const sessionRow = (each: SessionSummary, depth: number) => {
    const id = each.session_id;
    const isStored = stored.has(id);
    const edit =
      editing?.kind === 'rename' && editing.id === id
        ? editor('Session title', 'session-rename-input')
        : editing?.kind === 'tags' && editing.id === id
          ? editor('Tags, separated by commas', 'session-tags-input')
          : editing?.kind === 'new-folder' && editing.moving === id
            ? editor('New folder name', 'folder-name-input')
            : null;
    return (
      <SessionRow
        key={id}
        session={each}
        current={id === currentId}
        inTab={openMarks?.has(id) ?? false}
        mark={openMarks?.get(id) ?? null}
        stored={isStored}
        now={now}
        depth={depth}
        editor={edit}
        deleting={deleting === id}
        menuOpen={menu?.sessionId === id}
        onOpen={() => onOpen(id)}
        onMenu={(x, y) => {
          const items = sessionMenu(each);
          if (items.length > 0) setMenu({ x, y, items, label: `${each.title} actions`, sessionId: id });
        }}
        onRename={isStored && onRename ? () => setEditing({ kind: 'rename', id, text: each.title }) : undefined}
        onAskDelete={onDelete && !openMarks?.has(id) ? () => setDeleting(id) : undefined}
        onDelete={() => {
          setDeleting(null);
          if (onDelete) void act(() => onDelete(id));
        }}
        onKeep={() => setDeleting(null)}
        onTag={setTag}
        onRestore={each.archived && organise ? () => void act(() => organise.archive(id, false)) : undefined}
      />
    );
  };
  const folderRow = (node: FolderNode, depth: number): React.ReactNode => {
    const { id, name } = node.collection;
    const open = filtering || !closed.has(id);
    const newInside = editing?.kind === 'new-folder' && editing.parentId === id && editing.moving === null;
    return (
      <li key={`folder-${id}`} className="folder-branch">
        {editing?.kind === 'rename-folder' && editing.id === id ? (
          <div style={{ paddingLeft: depth * 12 }}>{editor('Folder name', 'folder-name-input')}</div>
        ) : (
          <button
            type="button"
            className={`folder-row${dropAt === id ? ' is-drop-target' : ''}`}
            style={{ paddingLeft: 6 + depth * 12 }}
            data-testid="folder-row"
            data-folder-id={id}
            aria-expanded={open}
            onClick={() => toggleFolder(id)}
            onContextMenu={(event) => {
              if (!organise) return;
              event.preventDefault();
              setMenu({ x: event.clientX, y: event.clientY, items: folderMenu(node), label: `${name} actions` });
            }}
            {...drop(id)}
          >
            <Chevron open={open} />
            <Icon name="folder" />
            <span className="folder-row-name">{name}</span>
            <span className="folder-row-count dim">{node.count}</span>
          </button>
        )}
        {open && (
          <ul className="folder-children">
            {newInside && <li style={{ paddingLeft: (depth + 1) * 12 }}>{editor('New folder name', 'folder-name-input')}</li>}
            {node.folders.map((child) => folderRow(child, depth + 1))}
            {node.sessions.map((each) => sessionRow(each, depth + 1))}
          </ul>
        )}
      </li>
    );
  };

  const nothing = filtering && tree.folders.length === 0 && tree.sessions.length === 0 && (!showArchived || tree.archived.length === 0);
  return (
    <nav className={`session-sidebar${collapsed ? ' is-collapsed' : ''}`} data-testid="session-sidebar" data-collapsed={collapsed} aria-label="Sessions">
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
        {!collapsed && (
          <span className={`sidebar-title${dropAt === 'top' ? ' is-drop-target' : ''}`} data-testid="sidebar-top" {...drop(null)}>
            Sessions
          </span>
        )}
        {!collapsed && organise && (
          <button
            type="button"
            className="sidebar-icon-button"
            data-testid="new-folder-button"
            title="New folder"
            onClick={() => setEditing({ kind: 'new-folder', parentId: null, moving: null, text: '' })}
          >
            <Icon name="folder" />
          </button>
        )}
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
          placeholder="Filter sessions by title"
          aria-label="Filter sessions by title"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
      )}
      {!collapsed && tree.tags.length > 0 && (
        <div className="tag-filter" data-testid="tag-filter">
          {tree.tags.map((each) => (
            <button
              key={each}
              type="button"
              className={`tag-chip${tag === each ? ' is-on' : ''}`}
              data-testid="tag-filter-chip"
              aria-pressed={tag === each}
              onClick={() => setTag(tag === each ? null : each)}
            >
              {each}
            </button>
          ))}
        </div>
      )}
      {!collapsed && (
        <ul className="session-list" {...drop(null)}>
          {error && <li className="session-list-error">{error}</li>}
          {actionError && (
            <li className="session-list-error" data-testid="session-action-error">
              {actionError}
            </li>
          )}
          {notice && (
            <li className="session-list-notice" data-testid="session-action-notice">
              {notice}
            </li>
          )}
          {nothing && <li className="session-list-empty dim">No session matches{query.trim() ? ` “${query.trim()}”` : ''}{tag ? ` tagged ${tag}` : ''}</li>}
          {editing?.kind === 'new-folder' && editing.parentId === null && editing.moving === null && <li>{editor('New folder name', 'folder-name-input')}</li>}
          {tree.folders.map((node) => folderRow(node, 0))}
          {tree.sessions.map((each) => sessionRow(each, 0))}
          {tree.archived.length > 0 && (
            <li className="folder-branch">
              <button type="button" className="folder-row archived-row" data-testid="archived-toggle" aria-expanded={showArchived} onClick={toggleArchived}>
                <Chevron open={showArchived} />
                <span className="folder-row-name">Archived</span>
                <span className="folder-row-count dim">{tree.archived.length}</span>
              </button>
              {showArchived && <ul className="folder-children">{tree.archived.map((each) => sessionRow(each, 1))}</ul>}
            </li>
          )}
        </ul>
      )}
      {menu && <SidebarMenu x={menu.x} y={menu.y} items={menu.items} label={menu.label} onClose={() => setMenu(null)} />}
    </nav>
  );
}

const CLOSED_KEY = 'tandem.closedFolders';

function readClosed(): ReadonlySet<number> {
  try {
    const saved: unknown = JSON.parse(window.localStorage.getItem(CLOSED_KEY) ?? '[]');
    return new Set(Array.isArray(saved) ? saved.filter((each): each is number => typeof each === 'number') : []);
  } catch {
    return new Set();
  }
}

function writeClosed(closed: ReadonlySet<number>): void {
  try {
    window.localStorage.setItem(CLOSED_KEY, JSON.stringify([...closed]));
  } catch {
    // A full or refused storage only forgets which folders were closed.
  }
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

// The sidebar's tree of a folder's sessions: its collections (the window calls them folders) nested by parent, each
// with its sessions, the pinned first (the list comes pinned first, then newest first, and keeps that order); the
// sessions in no collection after the top-level collections; archived sessions apart, hidden unless asked for. A
// tag filter or a title filter keeps the sessions that match (and the folders on their way); every tag in use is
// listed for the filter.
import type { SessionCollection, SessionSummary } from '../generated/protocol';

export type FolderNode = {
  collection: SessionCollection;
  folders: FolderNode[];
  sessions: SessionSummary[];
  /** Sessions in it and in the folders inside it (as filtered). */
  count: number;
};

export type SidebarTree = {
  folders: FolderNode[];
  /** Sessions in no collection (or in one that no longer exists). */
  sessions: SessionSummary[];
  archived: SessionSummary[];
  /** Every tag of the folder's sessions, archived ones included, sorted. */
  tags: string[];
};

export type TreeFilter = { tag: string | null; title: string };

export function buildTree(
  sessions: readonly SessionSummary[],
  collections: readonly SessionCollection[],
  filter: TreeFilter = { tag: null, title: '' },
): SidebarTree {
  const tags = [...new Set(sessions.flatMap((each) => each.tags))].sort();
  const needle = filter.title.trim().toLowerCase();
  const filtering = needle !== '' || filter.tag !== null;
  const matches = (each: SessionSummary) =>
    (!needle || each.title.toLowerCase().includes(needle)) && (filter.tag === null || each.tags.includes(filter.tag));
  const shown = sessions.filter(matches);
  const known = new Set(collections.map((each) => each.id));
  const byFolder = new Map<number | null, SessionSummary[]>();
  const archived: SessionSummary[] = [];
  for (const each of shown) {
    if (each.archived) {
      archived.push(each);
      continue;
    }
    const at = each.collection_id !== null && known.has(each.collection_id) ? each.collection_id : null;
    byFolder.set(at, [...(byFolder.get(at) ?? []), each]);
  }
  const children = new Map<number | null, SessionCollection[]>();
  for (const each of collections) {
    // A parent that is gone (or a cycle's member) leaves the collection at the top level.
    const parent = each.parent_id !== null && known.has(each.parent_id) ? each.parent_id : null;
    children.set(parent, [...(children.get(parent) ?? []), each]);
  }
  const seen = new Set<number>();
  const node = (collection: SessionCollection): FolderNode | null => {
    if (seen.has(collection.id)) return null;
    seen.add(collection.id);
    const folders = (children.get(collection.id) ?? []).map(node).filter((each): each is FolderNode => each !== null);
    const inside = byFolder.get(collection.id) ?? [];
    const count = inside.length + folders.reduce((sum, each) => sum + each.count, 0);
    return { collection, folders: filtering ? folders.filter((each) => each.count > 0) : folders, sessions: inside, count };
  };
  const byName = (a: SessionCollection, b: SessionCollection) => a.name.localeCompare(b.name);
  for (const list of children.values()) list.sort(byName);
  const top = (children.get(null) ?? []).map(node).filter((each): each is FolderNode => each !== null);
  return {
    folders: filtering ? top.filter((each) => each.count > 0) : top,
    sessions: byFolder.get(null) ?? [],
    archived,
    tags,
  };
}

/** Every collection with its depth, in tree order: the choices of "Move to folder". */
export function flatFolders(folders: readonly FolderNode[], depth = 0): { collection: SessionCollection; depth: number }[] {
  return folders.flatMap((each) => [{ collection: each.collection, depth }, ...flatFolders(each.folders, depth + 1)]);
}

/** Tags typed as "a, b c": split at commas, trimmed, lower-cased, without empties or repeats. */
export function parseTags(text: string): string[] {
  return [...new Set(text.split(',').map((each) => each.trim().replace(/\s+/g, ' ').toLowerCase()).filter(Boolean))];
}

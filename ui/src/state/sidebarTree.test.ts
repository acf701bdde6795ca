import { describe, expect, it } from 'vitest';
import type { SessionCollection, SessionSummary } from '../generated/protocol';
import { buildTree, flatFolders, parseTags } from './sidebarTree';

const session = (id: string, more: Partial<SessionSummary> = {}): SessionSummary => ({
  session_id: id,
  title: id,
  updated_at_ms: 0,
  message_count: 2,
  pinned: false,
  archived: false,
  tags: [],
  collection_id: null,
  ...more,
});
const folder = (id: number, name: string, parent_id: number | null = null): SessionCollection => ({ id, name, parent_id });

const collections = [folder(1, 'Work'), folder(2, 'Bugs', 1), folder(3, 'Alpha'), folder(4, 'Orphan', 99)];
const sessions = [
  session('pinned', { pinned: true, collection_id: 2, tags: ['ui'] }),
  session('a', { collection_id: 2, tags: ['ui', 'bug'] }),
  session('b', { collection_id: 1 }),
  session('c', { tags: ['bug'] }),
  session('gone', { collection_id: 42 }),
  session('old', { archived: true, collection_id: 1, tags: ['old'] }),
];

describe('the sidebar tree', () => {
  it('nests folders by name with their sessions, the archived apart', () => {
    const tree = buildTree(sessions, collections);
    expect(tree.folders.map((each) => each.collection.name)).toEqual(['Alpha', 'Orphan', 'Work']);
    const work = tree.folders[2];
    expect(work?.folders.map((each) => each.collection.name)).toEqual(['Bugs']);
    expect(work?.sessions.map((each) => each.session_id)).toEqual(['b']);
    expect(work?.folders[0]?.sessions.map((each) => each.session_id)).toEqual(['pinned', 'a']);
    expect(work?.count).toBe(3);
    expect(tree.sessions.map((each) => each.session_id)).toEqual(['c', 'gone']);
    expect(tree.archived.map((each) => each.session_id)).toEqual(['old']);
    expect(tree.tags).toEqual(['bug', 'old', 'ui']);
  });

  it('filters by tag or title, keeping the folders on the way to a match', () => {
    const table: { filter: { tag: string | null; title: string }; folders: string[]; top: string[] }[] = [
      { filter: { tag: 'bug', title: '' }, folders: ['Work'], top: ['c'] },
      { filter: { tag: 'ui', title: 'pin' }, folders: ['Work'], top: [] },
      { filter: { tag: null, title: 'GONE' }, folders: [], top: ['gone'] },
      { filter: { tag: 'none', title: '' }, folders: [], top: [] },
    ];
    for (const { filter, folders, top } of table) {
      const tree = buildTree(sessions, collections, filter);
      expect(tree.folders.map((each) => each.collection.name), JSON.stringify(filter)).toEqual(folders);
      expect(tree.sessions.map((each) => each.session_id), JSON.stringify(filter)).toEqual(top);
    }
  });

  it('survives a cycle of parents without looping', () => {
    const tree = buildTree([], [folder(1, 'A', 2), folder(2, 'B', 1)]);
    expect(flatFolders(tree.folders)).toEqual([]);
  });

  it('flattens folders with their depth for the move menu', () => {
    const flat = flatFolders(buildTree(sessions, collections).folders);
    expect(flat.map((each) => `${each.depth}:${each.collection.name}`)).toEqual(['0:Alpha', '0:Orphan', '0:Work', '1:Bugs']);
  });

  it('reads typed tags', () => {
    expect(parseTags(' Bug, ui  work ,, bug ')).toEqual(['bug', 'ui work']);
    expect(parseTags('')).toEqual([]);
  });
});

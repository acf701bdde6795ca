// The fake backend's organising: collections of the fake folders (nested; deleting one moves what it held up), and
// each session's collection, pin, archive and tags, applied to the summaries `list_sessions` gives (pinned first).
import type { SessionCollection, SessionSummary } from '../generated/protocol';

type Marks = Pick<SessionSummary, 'pinned' | 'archived' | 'tags' | 'collection_id'>;

const UNMARKED: Marks = { pinned: false, archived: false, tags: [], collection_id: null };

export class FakeOrganise {
  private readonly folders = new Map<number, SessionCollection & { path: string }>();
  private readonly marks = new Map<string, Marks>();
  private next = 1;

  collections(path: string): SessionCollection[] {
    return [...this.folders.values()].filter((each) => each.path === path).map(({ id, parent_id, name }) => ({ id, parent_id, name }));
  }

  create(path: string, name: string, parent: number | null): SessionCollection {
    if (!name.trim()) throw { code: 'store', message: 'a folder needs a name' };
    if (parent !== null && this.folders.get(parent)?.path !== path) throw { code: 'store', message: `no folder ${parent}` };
    const made = { id: this.next++, parent_id: parent, name: name.trim(), path };
    this.folders.set(made.id, made);
    return { id: made.id, parent_id: made.parent_id, name: made.name };
  }

  rename(id: number, name: string): void {
    const found = this.folder(id);
    if (!name.trim()) throw { code: 'store', message: 'a folder needs a name' };
    found.name = name.trim();
  }

  delete(id: number): void {
    const found = this.folder(id);
    for (const [session, marks] of this.marks) if (marks.collection_id === id) this.marks.set(session, { ...marks, collection_id: found.parent_id });
    for (const each of this.folders.values()) if (each.parent_id === id) each.parent_id = found.parent_id;
    this.folders.delete(id);
  }

  change(session: string, change: Partial<Marks>): void {
    if (change.collection_id != null) this.folder(change.collection_id);
    this.marks.set(session, { ...(this.marks.get(session) ?? UNMARKED), ...change });
  }

  /** `list` with each session's marks, pinned first then newest first. */
  apply(list: readonly SessionSummary[]): SessionSummary[] {
    return list
      .map((each) => ({ ...each, ...(this.marks.get(each.session_id) ?? UNMARKED) }))
      .sort((a, b) => Number(b.pinned) - Number(a.pinned) || b.updated_at_ms - a.updated_at_ms);
  }

  private folder(id: number) {
    const found = this.folders.get(id);
    if (!found) throw { code: 'store', message: `no folder ${id}` };
    return found;
  }
}

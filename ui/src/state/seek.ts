// Where a search hit is in a transcript: the hit names the event its text starts at (`seq`); each top-level item
// starts at the event its key names (a tool call at its `seq`), so the hit is in the last item that starts at or
// before it. A row folding several calls holds each of them.
import type { Row } from './rows';
import type { TranscriptItem } from './transcript';

/** The event an item starts at, when known. */
export function itemStart(item: TranscriptItem): number | null {
  if (item.kind === 'tool') return item.seq ?? null;
  return /^\d+$/.test(item.key) ? Number(item.key) : null;
}

/** The key of the item holding the text that starts at event `seq`, or null when no item starts by then. */
export function itemForSeq(items: readonly TranscriptItem[], seq: number): string | null {
  let found: string | null = null;
  for (const item of items) {
    const start = itemStart(item);
    if (start === null) continue;
    if (start > seq) break;
    found = item.key;
  }
  return found;
}

/** The index of the row showing the item `key`, or -1. */
export function rowOfItem(rows: readonly Row[], key: string): number {
  return rows.findIndex((row) => (row.kind === 'item' ? row.item.key === key : row.calls.some((call) => `tool:${call.id}` === key)));
}

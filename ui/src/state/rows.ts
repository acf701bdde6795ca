// Turns transcript items into display rows: runs of two or more consecutive collapsible tool calls
// (read-only work: reads, searches, listings) fold into one group row with a summary line. A call
// that needed the user's approval, or failed or was denied, never folds: it stands on its own; nor
// does a call that changes files (see fileChange.ts), whatever its hints say.
import type { ToolKind } from '../generated/protocol';
import { changesFiles } from './fileChange';
import type { ToolCall, TranscriptItem } from './transcript';

export type Row =
  | { kind: 'item'; key: string; item: TranscriptItem }
  | { kind: 'group'; key: string; calls: readonly ToolCall[] };

function collapsibleCall(item: TranscriptItem | undefined): ToolCall | null {
  if (!item || item.kind !== 'tool') return null;
  const { call } = item;
  const outcome = call.result?.outcome;
  const quiet = !call.asked && call.status !== 'waiting_for_approval' && (!outcome || outcome === 'success');
  return call.hints?.collapsible && quiet && !changesFiles(call) ? call : null;
}

export function buildRows(items: readonly TranscriptItem[]): Row[] {
  const rows: Row[] = [];
  let i = 0;
  while (i < items.length) {
    const item = items[i] as TranscriptItem;
    const first = collapsibleCall(item);
    if (first) {
      const calls: ToolCall[] = [first];
      let j = i + 1;
      for (let next = collapsibleCall(items[j]); next; next = collapsibleCall(items[++j])) {
        calls.push(next);
      }
      if (calls.length > 1) {
        rows.push({ kind: 'group', key: `group:${first.id}`, calls });
        i = j;
        continue;
      }
    }
    rows.push({ kind: 'item', key: item.key, item });
    i += 1;
  }
  return rows;
}

const PHRASES: Record<ToolKind, [verb: string, one: string, many: string]> = {
  read: ['read', 'file', 'files'],
  search: ['searched', 'pattern', 'patterns'],
  list: ['listed', 'directory', 'directories'],
  shell: ['ran', 'command', 'commands'],
  fetch: ['fetched', 'page', 'pages'],
  edit: ['edited', 'file', 'files'],
  write: ['wrote', 'file', 'files'],
  agent: ['ran', 'agent', 'agents'],
  other: ['made', 'other call', 'other calls'],
};

/** "Read 3 files, searched 2 patterns": counts per kind, in order of first appearance. */
export function summarizeCalls(calls: readonly ToolCall[]): string {
  const counts = new Map<ToolKind, number>();
  for (const call of calls) {
    const kind = call.hints?.kind ?? 'other';
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  const parts = [...counts].map(([kind, count]) => {
    const [verb, one, many] = PHRASES[kind];
    return `${verb} ${count} ${count === 1 ? one : many}`;
  });
  const text = parts.join(', ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

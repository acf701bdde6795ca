import { describe, expect, it } from 'vitest';
import type { EventEnvelope, SessionEvent } from '../generated/protocol';
import { applyEvents } from './reduce';
import { buildRows } from './rows';
import { itemForSeq, rowOfItem } from './seek';
import { emptyTranscript } from './transcript';

const envelopes = (events: SessionEvent[]): EventEnvelope[] => events.map((event, seq) => ({ session_id: 's', seq, event }));

const read = (id: string, path: string): SessionEvent[] => [
  { type: 'tool_call_started', tool_use_id: id, name: 'Read' },
  { type: 'tool_call_input', tool_use_id: id, name: 'Read', input: { file_path: path }, hints: { kind: 'read', title: `Read ${path}`, collapsible: true } },
  { type: 'tool_call_result', tool_use_id: id, outcome: 'success', content: 'text', detail: null },
];

// 0 prompt, 1 answer, 2-4 read a, 5-7 read b, 8 answer, 9 end, 10 prompt
const events: SessionEvent[] = [
  { type: 'turn_started', prompt: 'look' },
  { type: 'text_delta', text: 'I will read' },
  ...read('a', 'a.rs'),
  ...read('b', 'b.rs'),
  { type: 'text_delta', text: 'Done' },
  { type: 'turn_ended', stop_reason: 'end_turn' },
  { type: 'turn_started', prompt: 'again' },
];

describe('finding the item a search hit names', () => {
  const { items } = applyEvents(emptyTranscript(), envelopes(events));
  it('finds the item whose text starts at or before the event', () => {
    const table: [seq: number, key: string | null][] = [
      [0, '0'],
      [1, '1'],
      [3, 'tool:a'],
      [4, 'tool:a'],
      [7, 'tool:b'],
      [8, '8'],
      [10, '10'],
      [99, '10'],
    ];
    for (const [seq, key] of table) expect(itemForSeq(items, seq), `seq ${seq}`).toBe(key);
    expect(itemForSeq([], 3)).toBeNull();
  });

  it('finds the row of a call folded into a group', () => {
    const rows = buildRows(items);
    const group = rows.findIndex((row) => row.kind === 'group');
    expect(group).toBeGreaterThan(0);
    expect(rowOfItem(rows, 'tool:b')).toBe(group);
    expect(rowOfItem(rows, '8')).toBe(group + 1);
    expect(rowOfItem(rows, 'nothing')).toBe(-1);
  });
});

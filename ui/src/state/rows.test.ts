// Tests of grouping collapsible tool calls into summary rows, and of the summary wording.
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from '../generated/protocol';
import { envelopes, hints, readCall } from '../test/events';
import { applyEvents } from './reduce';
import { buildRows, summarizeCalls } from './rows';
import { emptyTranscript } from './transcript';
import { groupVisualState, visualState } from './toolState';

function rowsOf(events: SessionEvent[]): string[] {
  const state = applyEvents(emptyTranscript(), envelopes(events));
  return buildRows(state.items).map((row) =>
    row.kind === 'group' ? `group(${row.calls.map((call) => call.id).join(',')})` : row.item.kind,
  );
}

const bash = (id: string, collapsible: boolean): SessionEvent[] => [
  { type: 'tool_call_started', tool_use_id: id, name: 'Bash' },
  { type: 'tool_call_input', tool_use_id: id, name: 'Bash', input: { command: 'x' }, hints: hints('shell', 'x', collapsible) },
];

describe('buildRows', () => {
  const cases: { name: string; events: SessionEvent[]; rows: string[] }[] = [
    { name: 'a single read stays a tool row', events: readCall('a', 'x'), rows: ['tool'] },
    {
      name: 'consecutive reads fold',
      events: [...readCall('a', 'x'), ...readCall('b', 'y'), ...readCall('c', 'z', 'search')],
      rows: ['group(a,b,c)'],
    },
    {
      name: 'text breaks a run',
      events: [...readCall('a', 'x'), ...readCall('b', 'y'), { type: 'text_delta', text: 't' }, ...readCall('c', 'z')],
      rows: ['group(a,b)', 'assistant', 'tool'],
    },
    {
      name: 'a non-collapsible call breaks a run',
      events: [...readCall('a', 'x'), ...bash('b', false), ...readCall('c', 'y'), ...readCall('d', 'z')],
      rows: ['tool', 'tool', 'group(c,d)'],
    },
    {
      name: 'read-only shell commands fold too',
      events: [...bash('a', true), ...readCall('b', 'y')],
      rows: ['group(a,b)'],
    },
    {
      name: 'a call that asked for approval stands on its own',
      events: [
        ...readCall('a', 'x'),
        ...readCall('b', 'y').slice(0, 2),
        { type: 'tool_call_status_changed', tool_use_id: 'b', status: 'waiting_for_approval' },
        ...readCall('c', 'z'),
        ...readCall('d', 'w'),
      ],
      rows: ['tool', 'tool', 'group(c,d)'],
    },
    {
      name: 'failed and denied calls stand on their own',
      events: [
        ...readCall('a', 'x'),
        ...readCall('b', 'y').slice(0, 2),
        { type: 'tool_call_result', tool_use_id: 'b', outcome: 'error', content: 'no such file', detail: null },
        ...readCall('c', 'z').slice(0, 2),
        { type: 'tool_call_result', tool_use_id: 'c', outcome: 'denied', content: 'outside the folder', detail: null },
        ...readCall('d', 'w'),
        ...readCall('e', 'v'),
      ],
      rows: ['tool', 'tool', 'tool', 'group(d,e)'],
    },
    {
      name: 'a call without hints yet is not collapsible',
      events: [...readCall('a', 'x'), { type: 'tool_call_started', tool_use_id: 'b', name: 'Read' }],
      rows: ['tool', 'tool'],
    },
  ];
  it.each(cases)('$name', ({ events, rows }) => {
    expect(rowsOf(events)).toEqual(rows);
  });
});

describe('summarizeCalls', () => {
  const callsOf = (events: SessionEvent[]) => {
    const state = applyEvents(emptyTranscript(), envelopes(events));
    return state.items.flatMap((item) => (item.kind === 'tool' ? [item.call] : []));
  };
  const cases: { events: SessionEvent[]; text: string }[] = [
    { events: readCall('a', 'x'), text: 'Read 1 file' },
    {
      events: [...readCall('a', 'x'), ...readCall('b', 'y'), ...readCall('c', 'z'), ...readCall('d', 'p', 'search'), ...readCall('e', 'q', 'search')],
      text: 'Read 3 files, searched 2 patterns',
    },
    { events: [...readCall('a', 'p', 'search'), ...readCall('b', 'x')], text: 'Searched 1 pattern, read 1 file' },
    { events: [...readCall('a', 'd', 'list'), ...readCall('b', 'e', 'list')], text: 'Listed 2 directories' },
    { events: [...bash('a', true), ...bash('b', true)], text: 'Ran 2 commands' },
  ];
  it.each(cases)('$text', ({ events, text }) => {
    expect(summarizeCalls(callsOf(events))).toBe(text);
  });
});

describe('visual state', () => {
  const base = {
    id: 'a',
    name: 'Read',
    input: null,
    hints: null,
    decision: null,
    asked: false,
    progress: '',
  };
  const cases = [
    { status: 'queued', result: null, state: 'queued' },
    { status: 'waiting_for_approval', result: null, state: 'waiting' },
    { status: 'executing', result: null, state: 'running' },
    { status: 'completed', result: null, state: 'success' },
    { status: 'completed', result: { outcome: 'success', content: '', detail: null }, state: 'success' },
    { status: 'completed', result: { outcome: 'error', content: '', detail: null }, state: 'error' },
    { status: 'completed', result: { outcome: 'denied', content: '', detail: null }, state: 'denied' },
    { status: 'completed', result: { outcome: 'cancelled', content: '', detail: null }, state: 'cancelled' },
  ] as const;
  it.each(cases)('$status / $result.outcome → $state', ({ status, result, state }) => {
    expect(visualState({ ...base, status, result })).toBe(state);
  });

  it('a group shows what is still going on, then failures', () => {
    const done = { ...base, status: 'completed' as const, result: { outcome: 'success' as const, content: '', detail: null } };
    const failed = { ...done, result: { ...done.result, outcome: 'error' as const } };
    const running = { ...base, status: 'executing' as const, result: null };
    expect(groupVisualState([done, done])).toBe('success');
    expect(groupVisualState([done, failed])).toBe('error');
    expect(groupVisualState([failed, running])).toBe('running');
  });
});

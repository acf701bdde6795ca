// Tests of rewinding in the transcript: cutting the rows from a prompt on (in the session
// reducer, so later events keep folding in) and pairing prompt rows with the engine's points.
import { describe, expect, it } from 'vitest';
import type { RewindPoint, SessionEvent, SessionInfo } from '../generated/protocol';
import { envelopes, readCall, SESSION } from '../test/events';
import { applyEvents } from './reduce';
import { describeRewind, matchRewindPoint, promptItems, truncateBeforePrompt } from './rewind';
import { sessionReducer } from './session';
import { emptyTranscript } from './transcript';

const turn = (prompt: string, reply: string, toolId: string): SessionEvent[] => [
  { type: 'turn_started', prompt },
  ...readCall(toolId, `src/${toolId}.rs`),
  { type: 'text_delta', text: reply },
  { type: 'turn_ended', stop_reason: 'end_turn' },
];

const threeTurns = [...turn('first', 'one', 't1'), ...turn('second', 'two', 't2'), ...turn('third', 'three', 't3')];

describe('truncateBeforePrompt', () => {
  const transcript = applyEvents(emptyTranscript(SESSION), envelopes(threeTurns));

  it('drops the prompt row and every row after it, and re-indexes the calls kept', () => {
    const cut = truncateBeforePrompt(transcript, 1);
    expect(promptItems(cut.items).map((item) => item.text)).toEqual(['first']);
    expect(cut.items.map((item) => item.kind)).toEqual(['user', 'tool', 'assistant']);
    expect(cut.toolIndex).toEqual({ t1: 1 });
    expect(cut.lastSeq).toBe(transcript.lastSeq);
  });

  it('empties the transcript when rewound to before the first prompt', () => {
    expect(truncateBeforePrompt(transcript, 0).items).toEqual([]);
  });

  it('returns the same transcript when there is no such prompt', () => {
    expect(truncateBeforePrompt(transcript, 3)).toBe(transcript);
  });

  it('keeps folding new events after the cut, in the session reducer', () => {
    const info: SessionInfo = { session_id: SESSION, cwd: '/p', folder_name: 'p', model: 'm', mode: 'default', setup_hint: null, trust: { trusted: true, allow_rules: [], directories: [], hooks: [], mcp_servers: [] }, context_window: 200000, compact_at_percent: 80, auto_mode_available: false, terminal_panel: false };
    const opened = sessionReducer(null, { type: 'opened', info, events: envelopes(threeTurns) });
    const rewound = sessionReducer(opened, { type: 'rewound', ordinal: 2 });
    expect(promptItems(rewound?.transcript.items ?? []).map((item) => item.text)).toEqual(['first', 'second']);
    const next = sessionReducer(rewound, { type: 'events', events: envelopes(turn('third, again', 'ok', 't4'), threeTurns.length) });
    const items = next?.transcript.items ?? [];
    expect(promptItems(items).map((item) => item.text)).toEqual(['first', 'second', 'third, again']);
    expect(next?.transcript.toolIndex.t4).toBe(items.findIndex((item) => item.key === 'tool:t4'));
    expect(next?.transcript.toolIndex.t3).toBeUndefined();
  });
});

describe('matchRewindPoint', () => {
  const point = (id: number, prompt: string): RewindPoint => ({ prompt_id: String(id), prompt, files_changed_since: [] });
  const points = [point(0, 'first'), point(4, 'second'), point(9, 'first')];

  it('pairs the n-th prompt row with the n-th point when their texts agree', () => {
    expect(matchRewindPoint(points, 1, 'second')?.prompt_id).toBe('4');
    expect(matchRewindPoint(points, 2, 'first')?.prompt_id).toBe('9');
  });

  it('compares the first 200 characters only (the point keeps no more)', () => {
    const long = `${'é'.repeat(199)}xyz`;
    expect(matchRewindPoint([point(0, Array.from(long).slice(0, 200).join(''))], 0, long)?.prompt_id).toBe('0');
  });

  it('falls back to the one point with the row’s text when the order drifted', () => {
    expect(matchRewindPoint([point(6, 'second')], 1, 'second')?.prompt_id).toBe('6');
  });

  it('gives no point when none, or more than one, has the row’s text', () => {
    expect(matchRewindPoint(points, 3, 'gone')).toBeNull();
    expect(matchRewindPoint([point(2, 'second'), point(5, 'first'), point(8, 'first')], 0, 'first')).toBeNull();
  });
});

describe('describeRewind', () => {
  const outcome = { restored: ['a.rs', 'b.rs'], removed: ['c.rs'], conflicts: [], files_rewound: true, messages_removed: 6 };

  it('says what each scope did', () => {
    expect(describeRewind(outcome, 'both')).toBe(
      'Files and conversation rewound: 2 files restored, 1 file removed, 6 messages removed from the conversation.',
    );
    expect(describeRewind({ ...outcome, restored: [], removed: [] }, 'files')).toBe('Files rewound: no file needed restoring.');
    expect(describeRewind({ ...outcome, messages_removed: 1 }, 'conversation')).toBe(
      'Conversation rewound: 1 message removed from the conversation. The files were left as they are.',
    );
  });
});

describe('conversation_rewound', () => {
  const withIds = (prompt: string, id: string, toolId: string): SessionEvent[] => [
    { type: 'turn_started', prompt, prompt_id: id },
    ...readCall(toolId, `src/${toolId}.rs`),
    { type: 'text_delta', text: `${prompt} done` },
    { type: 'turn_ended', stop_reason: 'end_turn' },
  ];

  it('drops the prompt with that id and everything after it, even when texts repeat', () => {
    const events: SessionEvent[] = [
      ...withIds('same', '0', 't1'),
      ...withIds('same', '4', 't2'),
      ...withIds('later', '8', 't3'),
      { type: 'conversation_rewound', prompt_id: '4' },
    ];
    const transcript = applyEvents(emptyTranscript(SESSION), envelopes(events));
    expect(promptItems(transcript.items).map((item) => item.promptId)).toEqual(['0']);
    expect(transcript.toolIndex).toEqual({ t1: 1 });
  });

  it('replays a stored session as the model sees it: rewound prompts gone, the resent one kept', () => {
    const events: SessionEvent[] = [
      ...withIds('first', '0', 't1'),
      ...withIds('second', '4', 't2'),
      { type: 'conversation_rewound', prompt_id: '4' },
      ...withIds('second, said better', '4', 't3'),
    ];
    const transcript = applyEvents(emptyTranscript(SESSION), envelopes(events));
    expect(promptItems(transcript.items).map((item) => item.text)).toEqual(['first', 'second, said better']);
    expect(Object.keys(transcript.toolIndex).sort()).toEqual(['t1', 't3']);
  });

  it('changes nothing when no row has the id', () => {
    const transcript = applyEvents(emptyTranscript(SESSION), envelopes([...withIds('first', '0', 't1'), { type: 'conversation_rewound', prompt_id: '9' }]));
    expect(promptItems(transcript.items)).toHaveLength(1);
  });

  it('pairs a row with its point by id, never by text', () => {
    const points: RewindPoint[] = [
      { prompt_id: '0', prompt: 'same', files_changed_since: [] },
      { prompt_id: '4', prompt: 'same', files_changed_since: [] },
    ];
    expect(matchRewindPoint(points, 0, 'same', '4')?.prompt_id).toBe('4');
    expect(matchRewindPoint(points, 0, 'same')).toBe(points[0]);
    expect(matchRewindPoint(points, 1, 'same', '8')).toBeNull();
  });
});

// The reducer flattens each text that grew by streamed appends once per batch, so a text built from
// thousands of deltas is not kept as a rope of thousands of pieces when its row is never drawn.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionEvent } from '../generated/protocol';
import { envelopes } from '../test/events';
import { flatten } from './flatString';
import { applyEvents } from './reduce';
import { emptyTranscript } from './transcript';

vi.mock('./flatString', () => ({ flatten: vi.fn((text: string) => text) }));

const deltas = (type: 'text_delta' | 'thinking_delta', count: number): SessionEvent[] =>
  Array.from({ length: count }, (_, i) => ({ type, text: `piece ${i} ` }));

describe('flattening streamed text', () => {
  beforeEach(() => vi.mocked(flatten).mockClear());

  it('flattens each grown text once at the end of a batch, with its final value', () => {
    const events: SessionEvent[] = [
      { type: 'turn_started', prompt: 'go' },
      ...deltas('thinking_delta', 500),
      ...deltas('text_delta', 1000),
      { type: 'tool_call_started', tool_use_id: 't1', name: 'Bash' },
      ...Array.from({ length: 300 }, (_, i): SessionEvent => ({ type: 'tool_call_progress', tool_use_id: 't1', text: `line ${i}\n` })),
    ];
    const state = applyEvents(emptyTranscript(), envelopes(events));
    const texts = state.items.flatMap((item) =>
      item.kind === 'thinking' || item.kind === 'assistant' ? [item.text] : item.kind === 'tool' ? [item.call.progress] : [],
    );
    expect(vi.mocked(flatten).mock.calls.map(([text]) => text).sort()).toEqual(texts.sort());
  });

  it('flattens nothing for a batch that appended nothing', () => {
    applyEvents(emptyTranscript(), envelopes([{ type: 'turn_started', prompt: 'go' }, { type: 'text_delta', text: 'one piece' }]));
    expect(flatten).not.toHaveBeenCalled();
  });
});

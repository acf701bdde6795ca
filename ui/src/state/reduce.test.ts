// Table tests of the transcript reducer: each case folds a list of events and checks the result.
import { describe, expect, it } from 'vitest';
import type { EventEnvelope, SessionEvent, Usage } from '../generated/protocol';
import { approvalRequest, envelopes, hints, readCall, SESSION } from '../test/events';
import { applyEvent, applyEvents, skipGap } from './reduce';
import { emptyTranscript, type Transcript, type TranscriptItem } from './transcript';

function fold(events: readonly SessionEvent[]): Transcript {
  return applyEvents(emptyTranscript(), envelopes(events));
}

/** A compact picture of the items, for readable expectations. */
function shapes(state: Transcript): string[] {
  return state.items.map((item: TranscriptItem) => {
    switch (item.kind) {
      case 'user':
      case 'assistant':
      case 'thinking':
        return `${item.kind}:${item.text}`;
      case 'tool':
        return `tool:${item.call.name}:${item.call.status}:${item.call.result?.outcome ?? '-'}`;
      case 'error':
      case 'notice':
      case 'brief':
        return `${item.kind}:${item.message}`;
      case 'retry':
        return `retry:${item.attempt}:${item.waitMs}`;
      case 'turn_end':
        return `turn_end:${item.stopReason}`;
      case 'user_file':
        return `user_file:${item.path}:${item.bytes}:${item.caption ?? '-'}`;
      case 'push_notification':
        return `push_notification:${item.title}:${item.message}`;
    }
  });
}

const usage = (input: number, output: number): Usage => ({
  input_tokens: input,
  output_tokens: output,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
});

describe('item folding', () => {
  const cases: { name: string; events: SessionEvent[]; items: string[] }[] = [
    { name: 'nothing', events: [], items: [] },
    {
      name: 'a handed-over file and a notification are items of their own',
      events: [
        { type: 'user_file', path: '/p/out.md', bytes: 12, caption: 'The report' },
        { type: 'user_file', path: '/p/b.bin', bytes: 3 },
        { type: 'push_notification', title: 'Build', message: 'done' },
      ],
      items: ['user_file:/p/out.md:12:The report', 'user_file:/p/b.bin:3:-', 'push_notification:Build:done'],
    },
    {
      name: 'a prompt becomes a user item',
      events: [{ type: 'turn_started', prompt: 'hello' }],
      items: ['user:hello'],
    },
    {
      name: 'text deltas append to one block',
      events: [
        { type: 'turn_started', prompt: 'p' },
        { type: 'text_delta', text: 'Hel' },
        { type: 'text_delta', text: 'lo ' },
        { type: 'text_delta', text: 'world' },
      ],
      items: ['user:p', 'assistant:Hello world'],
    },
    {
      name: 'thinking and text are separate blocks',
      events: [
        { type: 'thinking_delta', text: 'hmm' },
        { type: 'thinking_delta', text: '...' },
        { type: 'text_delta', text: 'Answer' },
      ],
      items: ['thinking:hmm...', 'assistant:Answer'],
    },
    {
      name: 'a tool call between texts splits them',
      events: [
        { type: 'text_delta', text: 'Let me look.' },
        ...readCall('t1', 'a.rs'),
        { type: 'text_delta', text: 'Found it.' },
      ],
      items: ['assistant:Let me look.', 'tool:Read:completed:success', 'assistant:Found it.'],
    },
    {
      name: 'status changes do not split text',
      events: [
        { type: 'tool_call_started', tool_use_id: 't1', name: 'Read' },
        { type: 'text_delta', text: 'a' },
        { type: 'tool_call_status_changed', tool_use_id: 't1', status: 'executing' },
        { type: 'text_delta', text: 'b' },
      ],
      items: ['tool:Read:executing:-', 'assistant:ab'],
    },
    {
      name: 'errors and notices are items',
      events: [
        { type: 'notice', message: 'Compacted the conversation' },
        { type: 'error', message: 'Rate limited' },
      ],
      items: ['notice:Compacted the conversation', 'error:Rate limited'],
    },
    {
      name: 'consecutive retries show as one line',
      events: [
        { type: 'retrying', attempt: 1, wait_ms: 1000, reason: 'overloaded' },
        { type: 'retrying', attempt: 2, wait_ms: 3000, reason: 'overloaded' },
        { type: 'text_delta', text: 'ok' },
        { type: 'retrying', attempt: 1, wait_ms: 500, reason: 'overloaded' },
      ],
      items: ['retry:2:3000', 'assistant:ok', 'retry:1:500'],
    },
    {
      name: 'a normal end adds nothing, an interruption is shown',
      events: [
        { type: 'turn_started', prompt: 'a' },
        { type: 'turn_ended', stop_reason: 'end_turn' },
        { type: 'turn_started', prompt: 'b' },
        { type: 'turn_ended', stop_reason: 'interrupted' },
      ],
      items: ['user:a', 'user:b', 'turn_end:interrupted'],
    },
    {
      name: 'events of an unknown tool create it',
      events: [{ type: 'tool_call_progress', tool_use_id: 'x', text: 'out' }],
      items: ['tool:unknown:queued:-'],
    },
  ];
  it.each(cases)('$name', ({ events, items }) => {
    expect(shapes(fold(events))).toEqual(items);
  });
});

describe('tool calls', () => {
  it('collects name, input, hints, status, decision, progress and result', () => {
    const state = fold([
      { type: 'tool_call_started', tool_use_id: 't1', name: 'Bash' },
      {
        type: 'tool_call_input',
        tool_use_id: 't1',
        name: 'Bash',
        input: { command: 'ls' },
        hints: hints('shell', 'Run ls'),
      },
      { type: 'tool_call_status_changed', tool_use_id: 't1', status: 'waiting_for_approval' },
      {
        type: 'tool_call_decision',
        tool_use_id: 't1',
        decision: { decision: 'allow', reason: 'user allowed', rule: null, source: null, decided_by: null },
      },
      { type: 'tool_call_status_changed', tool_use_id: 't1', status: 'executing' },
      { type: 'tool_call_progress', tool_use_id: 't1', text: 'a\n' },
      { type: 'tool_call_progress', tool_use_id: 't1', text: 'b\n' },
      { type: 'tool_call_result', tool_use_id: 't1', outcome: 'error', content: 'exit 1', detail: { type: 'shell', exit_code: 1, cwd: '/p', cwd_reset: false } },
    ]);
    expect(state.items).toHaveLength(1);
    const item = state.items[0];
    if (item?.kind !== 'tool') throw new Error('expected a tool item');
    expect(item.key).toBe('tool:t1');
    expect(item.call).toEqual({
      id: 't1',
      name: 'Bash',
      input: { command: 'ls' },
      hints: hints('shell', 'Run ls'),
      status: 'completed',
      decision: { decision: 'allow', reason: 'user allowed', rule: null, source: null, decided_by: null },
      asked: true,
      progress: 'a\nb\n',
      result: { outcome: 'error', content: 'exit 1', detail: { type: 'shell', exit_code: 1, cwd: '/p', cwd_reset: false } },
    });
    expect(state.toolIndex).toEqual({ t1: 0 });
  });

  it('keeps parallel calls apart by tool_use_id', () => {
    const state = fold([
      { type: 'tool_call_started', tool_use_id: 'a', name: 'Read' },
      { type: 'tool_call_started', tool_use_id: 'b', name: 'Grep' },
      { type: 'tool_call_result', tool_use_id: 'b', outcome: 'success', content: 'B', detail: null },
      { type: 'tool_call_result', tool_use_id: 'a', outcome: 'denied', content: 'A', detail: null },
    ]);
    expect(shapes(state)).toEqual(['tool:Read:completed:denied', 'tool:Grep:completed:success']);
  });

  it('replaces only the changed item object', () => {
    const before = fold([...readCall('a', 'x'), { type: 'tool_call_started', tool_use_id: 'b', name: 'Read' }]);
    const after = applyEvent(before, {
      session_id: SESSION,
      seq: before.lastSeq + 1,
      event: { type: 'tool_call_status_changed', tool_use_id: 'b', status: 'executing' },
    });
    expect(after.items[0]).toBe(before.items[0]);
    expect(after.items[1]).not.toBe(before.items[1]);
    expect(before.items[1]).toMatchObject({ call: { status: 'queued' } });
  });
});

describe('approvals', () => {
  const cases: { name: string; events: SessionEvent[]; pending: string[] }[] = [
    {
      name: 'a request is pending',
      events: [{ type: 'approval_requested', request: approvalRequest('r1', 't1') }],
      pending: ['r1'],
    },
    {
      name: 'requests queue in order',
      events: [
        { type: 'approval_requested', request: approvalRequest('r1', 't1') },
        { type: 'approval_requested', request: approvalRequest('r2', 't2') },
      ],
      pending: ['r1', 'r2'],
    },
    {
      name: 'a resolved request goes away',
      events: [
        { type: 'approval_requested', request: approvalRequest('r1', 't1') },
        { type: 'approval_requested', request: approvalRequest('r2', 't2') },
        { type: 'approval_resolved', request_id: 'r1' },
      ],
      pending: ['r2'],
    },
    {
      name: 'the same request twice is kept once',
      events: [
        { type: 'approval_requested', request: approvalRequest('r1', 't1') },
        { type: 'approval_requested', request: approvalRequest('r1', 't1') },
      ],
      pending: ['r1'],
    },
    {
      name: 'resolving an unknown request changes nothing',
      events: [
        { type: 'approval_requested', request: approvalRequest('r1', 't1') },
        { type: 'approval_resolved', request_id: 'zz' },
      ],
      pending: ['r1'],
    },
  ];
  it.each(cases)('$name', ({ events, pending }) => {
    expect(fold(events).approvals.map((request) => request.id)).toEqual(pending);
  });
});

describe('turn state and usage', () => {
  const cases: { name: string; events: SessionEvent[]; running: boolean; stop: string | null }[] = [
    { name: 'idle at first', events: [], running: false, stop: null },
    { name: 'running after turn_started', events: [{ type: 'turn_started', prompt: 'x' }], running: true, stop: null },
    {
      name: 'idle after turn_ended',
      events: [
        { type: 'turn_started', prompt: 'x' },
        { type: 'turn_ended', stop_reason: 'max_tokens' },
      ],
      running: false,
      stop: 'max_tokens',
    },
    {
      name: 'a new turn clears the last stop reason',
      events: [
        { type: 'turn_ended', stop_reason: 'error' },
        { type: 'turn_started', prompt: 'again' },
      ],
      running: true,
      stop: null,
    },
  ];
  it.each(cases)('$name', ({ events, running, stop }) => {
    const state = fold(events);
    expect(state.running).toBe(running);
    expect(state.lastStopReason).toBe(stop);
  });

  it('keeps the latest usage and cost', () => {
    const state = fold([
      { type: 'usage_updated', turn: usage(10, 5), session: usage(10, 5), cost_usd: 0.01 },
      { type: 'usage_updated', turn: usage(20, 7), session: usage(30, 12), cost_usd: 0.03 },
    ]);
    expect(state.usage).toEqual({ turn: usage(20, 7), session: usage(30, 12), costUsd: 0.03 });
  });
});

describe('ordering and duplicates', () => {
  const text = (seq: number, t: string, session = SESSION): EventEnvelope => ({
    session_id: session,
    seq,
    event: { type: 'text_delta', text: t },
  });

  const cases: { name: string; batches: EventEnvelope[][]; text: string; lastSeq: number }[] = [
    { name: 'one batch', batches: [[text(0, 'a'), text(1, 'b')]], text: 'ab', lastSeq: 1 },
    { name: 'two batches', batches: [[text(0, 'a')], [text(1, 'b'), text(2, 'c')]], text: 'abc', lastSeq: 2 },
    {
      name: 'a batch repeated across a boundary',
      batches: [[text(0, 'a'), text(1, 'b')], [text(1, 'b'), text(2, 'c')]],
      text: 'abc',
      lastSeq: 2,
    },
    { name: 'a duplicate within a batch', batches: [[text(0, 'a'), text(0, 'a'), text(1, 'b')]], text: 'ab', lastSeq: 1 },
    { name: 'a batch that arrives late is folded in order', batches: [[text(1, 'b'), text(2, 'c')], [text(0, 'a')]], text: 'abc', lastSeq: 2 },
    { name: 'events after a gap wait for the missing ones', batches: [[text(0, 'a'), text(2, 'c')]], text: 'a', lastSeq: 0 },
    {
      name: 'a gap filled by a later batch',
      batches: [[text(0, 'a'), text(3, 'd')], [text(2, 'c')], [text(1, 'b'), text(2, 'c')]],
      text: 'abcd',
      lastSeq: 3,
    },
    {
      name: 'another session is ignored',
      batches: [[text(0, 'a')], [text(1, 'b', 'other')], [text(1, 'c')]],
      text: 'ac',
      lastSeq: 1,
    },
  ];
  it.each(cases)('$name', ({ batches, text: expected, lastSeq }) => {
    const state = batches.reduce(applyEvents, emptyTranscript());
    expect(shapes(state)).toEqual([`assistant:${expected}`]);
    expect(state.lastSeq).toBe(lastSeq);
  });

  it('holds the events after a gap, and folds them as they are once the gap is skipped', () => {
    const held = applyEvents(emptyTranscript(), [text(0, 'a'), text(2, 'c'), text(3, 'd')]);
    expect(held.pending.map((envelope) => envelope.seq)).toEqual([2, 3]);
    const skipped = skipGap(held);
    expect(shapes(skipped)).toEqual(['assistant:acd']);
    expect(skipped.pending).toEqual([]);
    expect(skipped.lastSeq).toBe(3);
  });

  it('returns the same object when nothing applies', () => {
    const state = fold([{ type: 'text_delta', text: 'a' }]);
    expect(applyEvents(state, [text(0, 'again')])).toBe(state);
    expect(applyEvents(state, [])).toBe(state);
  });

  it('adopts the session id of the first event unless one is given', () => {
    expect(fold([{ type: 'text_delta', text: 'a' }]).sessionId).toBe(SESSION);
    const fixed = applyEvents(emptyTranscript('mine'), [text(0, 'a')]);
    expect(fixed.items).toHaveLength(0);
  });

  it('does not mutate its input', () => {
    const before = fold([{ type: 'turn_started', prompt: 'p' }, { type: 'text_delta', text: 'a' }]);
    const snapshot = JSON.stringify(before);
    applyEvents(before, envelopes([{ type: 'text_delta', text: 'b' }, ...readCall('t', 'f')], 2));
    expect(JSON.stringify(before)).toBe(snapshot);
  });
});

describe('sub-agents in a reopened session', () => {
  it('folds the stored events of each sub-agent, replayed in one batch, into the Agent call that started it', () => {
    const nested = (parent: string, event: SessionEvent): SessionEvent => ({ type: 'sub_agent', parent_tool_use_id: parent, agent_id: `x-${parent}`, event });
    const state = fold([
      { type: 'turn_started', prompt: 'look twice' },
      { type: 'tool_call_started', tool_use_id: 'a1', name: 'Agent' },
      { type: 'tool_call_started', tool_use_id: 'a2', name: 'Agent' },
      nested('a1', { type: 'turn_started', prompt: 'first' }),
      nested('a2', { type: 'turn_started', prompt: 'second' }),
      nested('a1', { type: 'text_delta', text: 'One.' }),
      nested('a2', { type: 'text_delta', text: 'Two.' }),
      nested('a1', { type: 'turn_ended', stop_reason: 'end_turn' }),
      nested('a2', { type: 'turn_ended', stop_reason: 'interrupted' }),
      { type: 'background_agent_changed', agent: { task_id: 'agent-a3', parent_tool_use_id: 'a3', agent_type: 'Explore', description: 'd', status: 'stopped' } },
    ]);
    const call = (id: string) => state.items.flatMap((item) => (item.kind === 'tool' && item.call.id === id ? [item.call] : []))[0];
    expect(shapes(call('a1')?.subAgent?.transcript as Transcript)).toEqual(['user:first', 'assistant:One.']);
    expect(call('a1')?.subAgent?.transcript.running).toBe(false);
    expect(shapes(call('a2')?.subAgent?.transcript as Transcript)).toEqual(['user:second', 'assistant:Two.', 'turn_end:interrupted']);
    expect(state.backgroundAgents.map((agent) => `${agent.task_id}:${agent.status}`)).toEqual(['agent-a3:stopped']);
  });
});

describe('prompt images', () => {
  it('go with the prompt whose turn just started, and survive a replay of the same events', () => {
    const image = { media_type: 'image/png', data: 'AAAA' };
    const events: SessionEvent[] = [
      { type: 'turn_started', prompt: 'first', prompt_id: '0' },
      { type: 'text_delta', text: 'ok' },
      { type: 'turn_ended', stop_reason: 'end_turn' },
      { type: 'turn_started', prompt: '', prompt_id: '2' },
      { type: 'prompt_images', images: [image] },
    ];
    const state = fold(events);
    const users = state.items.filter((item) => item.kind === 'user');
    expect(users.map((item) => item.images ?? [])).toEqual([[], [image]]);
    // A reopened session folds its stored events the same way.
    expect(fold(events).items).toEqual(state.items);
  });
});

describe('calls a call made', () => {
  it('go inside the REPL or Workflow call that made them, in every batching, and an unknown outer id stays a call of its own', () => {
    const events: SessionEvent[] = [
      { type: 'turn_started', prompt: 'run the checks' },
      { type: 'tool_call_started', tool_use_id: 'w1', name: 'Workflow' },
      { type: 'tool_call_input', tool_use_id: 'w1', name: 'Workflow', input: { workflow: 'check' }, hints: hints('other', 'Workflow check') },
      { type: 'tool_call_status_changed', tool_use_id: 'w1', status: 'executing' },
      ...readCall('w1/1', 'notes.txt'),
      { type: 'tool_call_input', tool_use_id: 'w1/2', name: 'Bash', input: { command: 'wc -l notes.txt' }, hints: hints('shell', 'wc -l notes.txt') },
      { type: 'tool_call_progress', tool_use_id: 'w1/2', text: '3\n' },
      { type: 'tool_call_result', tool_use_id: 'w1/2', outcome: 'error', content: 'exit 1', detail: null },
      { type: 'tool_call_result', tool_use_id: 'w1', outcome: 'error', content: 'Workflow check stopped at step 2', detail: null },
      ...readCall('zz/1', 'other.txt'),
    ];
    const whole = fold(events);
    expect(shapes(whole)).toEqual(['user:run the checks', 'tool:Workflow:completed:error', 'tool:Read:completed:success']);
    const outer = whole.items.flatMap((item) => (item.kind === 'tool' && item.call.id === 'w1' ? [item.call] : []))[0];
    expect(shapes(outer?.inner as Transcript)).toEqual(['tool:Read:completed:success', 'tool:Bash:completed:error']);
    const bash = outer?.inner?.items.flatMap((item) => (item.kind === 'tool' && item.call.id === 'w1/2' ? [item.call] : []))[0];
    expect(bash?.progress).toBe('3\n');
    // One event at a time, or in batches of any size: the same transcript.
    for (const size of [1, 2, 3, 5]) {
      let state = emptyTranscript();
      const all = envelopes(events);
      for (let at = 0; at < all.length; at += size) state = applyEvents(state, all.slice(at, at + size));
      expect(state.items).toEqual(whole.items);
    }
  });
});

// Property: however a session's events reach the window — cut into batches at any places, batches repeated,
// arriving out of order, one lost and fetched again afterwards (as the session hook catches up) — and with
// trust changes and saved settings interleaved at any points, the session ends in the same state as when every
// event arrived in one batch: the turn's answer shown, the turn ended.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EventEnvelope, SessionEvent, SessionInfo, Usage } from '../generated/protocol';
import { approvalRequest, envelopes, hints, SESSION } from '../test/events';
import { sessionInfo } from '../test/fakeIpc';
import { sessionReducer, type Session, type SessionAction } from './session';

const info: SessionInfo = sessionInfo({
  session_id: SESSION,
  trust: { trusted: false, allow_rules: ['Bash(touch trusted-*)'], directories: [], hooks: [], mcp_servers: [] },
});
const trusted: SessionInfo['trust'] = { ...info.trust, trusted: true };
const saved: SessionInfo = { ...info, model: 'm2', trust: trusted };

const usage = (n: number): Usage => ({
  input_tokens: n,
  output_tokens: n,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
});

function touch(id: string, file: string, extra: SessionEvent[]): SessionEvent[] {
  return [
    { type: 'tool_call_started', tool_use_id: id, name: 'Bash' },
    { type: 'tool_call_status_changed', tool_use_id: id, status: 'queued' },
    { type: 'tool_call_input', tool_use_id: id, name: 'Bash', input: { command: `touch ${file}` }, hints: hints('shell', `touch ${file}`) },
    ...extra,
    { type: 'tool_call_status_changed', tool_use_id: id, status: 'executing' },
    { type: 'tool_call_result', tool_use_id: id, outcome: 'success', content: '', detail: null },
    { type: 'tool_call_status_changed', tool_use_id: id, status: 'completed' },
  ];
}

/** The turn of the report: a command a folder rule allows, one asked and saved, the same again, an answer. */
const TURN: SessionEvent[] = [
  { type: 'mcp_server_changed', server: { name: 'x', transport: 'stdio', target: 'x', source: '.mcp.json', state: { state: 'needs_approval' }, tools: [], disabled_tools: [], prompts: [], resources: [] } },
  { type: 'turn_started', prompt: 'Touch the files', prompt_id: '0' },
  { type: 'text_delta', text: 'I will touch ' },
  { type: 'text_delta', text: 'the files.' },
  ...touch('t1', 'trusted-a.txt', []),
  { type: 'usage_updated', turn: usage(10), session: usage(10), cost_usd: 0.001 },
  ...touch('t2', 'agent-b.txt', [
    { type: 'tool_call_status_changed', tool_use_id: 't2', status: 'waiting_for_approval' },
    { type: 'approval_requested', request: approvalRequest('r1', 't2') },
    { type: 'approval_resolved', request_id: 'r1' },
  ]),
  { type: 'usage_updated', turn: usage(10), session: usage(20), cost_usd: 0.002 },
  ...touch('t3', 'agent-b.txt', []),
  { type: 'usage_updated', turn: usage(10), session: usage(30), cost_usd: 0.003 },
  { type: 'text_delta', text: 'Final ' },
  { type: 'text_delta', text: 'answer.' },
  { type: 'usage_updated', turn: usage(10), session: usage(40), cost_usd: 0.004 },
  { type: 'turn_ended', stop_reason: 'end_turn' },
];
const ALL: EventEnvelope[] = envelopes(TURN);

/** What the window does besides folding events: trust the folder, take saved settings, reload its session list. */
type Aside = 'trust' | 'settings' | 'list';
const ASIDES: readonly Aside[] = ['trust', 'settings', 'list'];

function asideAction(aside: Aside): SessionAction | null {
  switch (aside) {
    case 'trust':
      return { type: 'trust', trust: trusted };
    case 'settings':
      return { type: 'info', info: saved };
    case 'list':
      return null; // the sidebar's list is its own state: the session is untouched
  }
}

/** Folds `actions` from nothing, the session opening with `early` events. */
function run(early: readonly EventEnvelope[], actions: readonly SessionAction[]): Session {
  let state = sessionReducer(null, { type: 'opened', info, events: early });
  for (const action of actions) state = sessionReducer(state, action);
  if (!state) throw new Error('no session');
  return state;
}

/** The window's catching up: the events after the last one folded, as the backend keeps them. */
function catchUp(state: Session): SessionAction {
  return { type: 'events', events: ALL.filter((envelope) => envelope.seq > state.transcript.lastSeq) };
}

const reference = run([], [{ type: 'events', events: ALL }, { type: 'trust', trust: trusted }, { type: 'info', info: saved }]);

const delivery = fc
  .record({
    early: fc.integer({ min: 0, max: ALL.length }),
    cuts: fc.uniqueArray(fc.integer({ min: 1, max: ALL.length - 1 }), { maxLength: 20 }),
    repeats: fc.array(fc.nat(), { maxLength: 4 }),
    lost: fc.option(fc.nat(), { nil: null }),
    swaps: fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 4 }),
    asides: fc.array(fc.tuple(fc.constantFrom(...ASIDES), fc.nat()), { maxLength: 6 }),
  })
  .map(({ early, cuts, repeats, lost, swaps, asides }) => {
    const rest = ALL.slice(early);
    const points = [0, ...cuts.filter((c) => c < rest.length).sort((a, b) => a - b), rest.length];
    let batches = points.slice(1).map((end, i) => rest.slice(points[i], end)).filter((b) => b.length > 0);
    for (const r of repeats) if (batches.length) batches.splice(r % batches.length, 0, batches[r % batches.length] ?? []);
    for (const [a, b] of swaps) {
      if (batches.length < 2) break;
      const i = a % batches.length;
      const j = b % batches.length;
      [batches[i], batches[j]] = [batches[j] ?? [], batches[i] ?? []];
    }
    if (lost !== null && batches.length) batches = batches.filter((_, i) => i !== lost % batches.length);
    // The trust change and the saved settings happen once each, in that order, at any points among the batches.
    const placed = asides.map(([aside, at]) => ({ aside, at: at % (batches.length + 1) }));
    return { early: ALL.slice(0, early), batches, placed };
  });

describe('event delivery', () => {
  it('ends in the same state whatever the batches, their order, repeats and a lost one fetched again', () => {
    fc.assert(
      fc.property(delivery, ({ early, batches, placed }) => {
        const actions: SessionAction[] = [];
        const trustAt = placed.find((p) => p.aside === 'trust')?.at ?? batches.length;
        const settingsAt = Math.max(trustAt, placed.find((p) => p.aside === 'settings')?.at ?? batches.length);
        for (let i = 0; i <= batches.length; i += 1) {
          for (const { aside, at } of placed) {
            if (at === i && aside === 'list') actions.push(...[asideAction(aside)].filter((a) => a !== null));
          }
          if (i === trustAt) actions.push({ type: 'trust', trust: trusted });
          if (i === settingsAt) actions.push({ type: 'info', info: saved });
          const batch = batches[i];
          if (batch) actions.push({ type: 'events', events: batch });
        }
        let state = run(early, actions);
        // The hook asks for what is missing when events wait after a gap, or when the channel went quiet.
        if (state.transcript.pending.length > 0 || state.transcript.lastSeq < ALL.length - 1) {
          state = sessionReducer(state, catchUp(state)) ?? state;
        }
        expect(state.transcript).toEqual(reference.transcript);
        expect(state.info).toEqual(reference.info);
        expect(state.mode).toEqual(reference.mode);
        expect(state.transcript.running).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it('shows the answer and ends the turn in the reference fold', () => {
    const texts = reference.transcript.items.flatMap((item) => (item.kind === 'assistant' ? [item.text] : []));
    expect(texts.at(-1)).toBe('Final answer.');
    expect(reference.transcript.running).toBe(false);
    expect(reference.transcript.turnsEnded).toBe(1);
    expect(reference.transcript.pending).toEqual([]);
  });
});

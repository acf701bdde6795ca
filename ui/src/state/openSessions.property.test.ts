// Property: however the events of two open sessions reach the window — each session's cut into batches at any
// places, the two channels' batches interleaved in any order, the second session opened at any moment (its earlier
// events held until it opens), tabs switched and cycled at any points — after every step each session's state is
// exactly the fold of its own events delivered so far in one batch, and its running / waiting mark follows from
// that: no event is lost, none lands in the other session, and a hidden tab's state is the same as a shown one's.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EventEnvelope, SessionEvent, SessionInfo } from '../generated/protocol';
import { approvalRequest, hints } from '../test/events';
import { sessionInfo } from '../test/fakeIpc';
import { markOf, noSessions, openSessionsReducer, type OpenSessions, type OpenSessionsAction } from './openSessions';
import { sessionReducer, type Session } from './session';

const A = 'session-a';
const B = 'session-b';
const infoA: SessionInfo = sessionInfo({ session_id: A, cwd: '/work/a', folder_name: 'a' });
const infoB: SessionInfo = sessionInfo({ session_id: B, cwd: '/work/b', folder_name: 'b' });

/** A turn that asks the person before a command, then answers. */
function turn(prefix: string, prompt: string): SessionEvent[] {
  const id = `${prefix}-bash`;
  return [
    { type: 'turn_started', prompt, prompt_id: '0' },
    { type: 'text_delta', text: `${prefix} starts ` },
    { type: 'text_delta', text: 'working.' },
    { type: 'tool_call_started', tool_use_id: id, name: 'Bash' },
    { type: 'tool_call_input', tool_use_id: id, name: 'Bash', input: { command: `touch ${prefix}` }, hints: hints('shell', `touch ${prefix}`) },
    { type: 'tool_call_status_changed', tool_use_id: id, status: 'waiting_for_approval' },
    { type: 'approval_requested', request: { ...approvalRequest(`${prefix}-request`, id), session_id: prefix } },
    { type: 'approval_resolved', request_id: `${prefix}-request` },
    { type: 'tool_call_status_changed', tool_use_id: id, status: 'executing' },
    { type: 'tool_call_result', tool_use_id: id, outcome: 'success', content: '', detail: null },
    { type: 'text_delta', text: `${prefix} is ` },
    { type: 'text_delta', text: 'done.' },
    { type: 'turn_ended', stop_reason: 'end_turn' },
  ];
}

const wrap = (sessionId: string, events: readonly SessionEvent[]): EventEnvelope[] =>
  events.map((event, seq) => ({ session_id: sessionId, seq, event }));
const EVENTS_A = wrap(A, turn(A, 'first folder'));
const EVENTS_B = wrap(B, [...turn(B, 'second folder'), ...turn(B, 'again').map((e) => (e.type === 'turn_started' ? { ...e, prompt_id: '2' } : e))]);

/** The state of a session that got `events` in one batch at its opening. */
function folded(info: SessionInfo, events: readonly EventEnvelope[]): Session {
  const session = sessionReducer(null, { type: 'opened', info, events });
  if (!session) throw new Error('no session');
  return session;
}

/** `events` cut into batches at `cuts`. */
function batches(events: readonly EventEnvelope[], cuts: readonly number[]): EventEnvelope[][] {
  const points = [0, ...cuts.filter((c) => c > 0 && c < events.length).sort((a, b) => a - b), events.length];
  return points.slice(1).map((end, i) => events.slice(points[i], end)).filter((batch) => batch.length > 0);
}

type Step = { kind: 'batch'; session: typeof A | typeof B; events: EventEnvelope[] } | { kind: 'openB' } | { kind: 'tabs'; action: OpenSessionsAction };

const TAB_ACTIONS: OpenSessionsAction[] = [
  { type: 'activate', sessionId: A },
  { type: 'activate', sessionId: B },
  { type: 'cycle', step: 1 },
  { type: 'cycle', step: -1 },
];

const scenario = fc
  .record({
    cutsA: fc.uniqueArray(fc.integer({ min: 1, max: EVENTS_A.length - 1 }), { maxLength: EVENTS_A.length }),
    cutsB: fc.uniqueArray(fc.integer({ min: 1, max: EVENTS_B.length - 1 }), { maxLength: EVENTS_B.length }),
    order: fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }),
    openBAt: fc.nat(),
    switches: fc.array(fc.tuple(fc.nat(), fc.constantFrom(...TAB_ACTIONS)), { maxLength: 8 }),
  })
  .map(({ cutsA, cutsB, order, openBAt, switches }) => {
    const fromA = batches(EVENTS_A, cutsA);
    const fromB = batches(EVENTS_B, cutsB);
    const steps: Step[] = [];
    // The two channels' batches merged in the order the booleans pick, each channel's own order kept.
    let pick = 0;
    while (fromA.length || fromB.length) {
      const takeA = fromB.length === 0 || (fromA.length > 0 && (order[pick++ % order.length] ?? true));
      const events = (takeA ? fromA : fromB).shift();
      if (events) steps.push({ kind: 'batch', session: takeA ? A : B, events });
    }
    steps.splice(openBAt % (steps.length + 1), 0, { kind: 'openB' });
    for (const [at, action] of switches) steps.splice(at % (steps.length + 1), 0, { kind: 'tabs', action });
    return steps;
  });

describe('two open sessions', () => {
  it('fold each session from its own events only, however the batches interleave and the tabs switch', () => {
    fc.assert(
      fc.property(scenario, (steps) => {
        let state: OpenSessions = openSessionsReducer(noSessions, { type: 'opened', info: infoA, events: [] });
        const delivered: Record<string, EventEnvelope[]> = { [A]: [], [B]: [] };
        // What the session hook holds for B until `open_session` resolves.
        let earlyB: EventEnvelope[] | null = [];
        for (const step of steps) {
          if (step.kind === 'batch') {
            delivered[step.session]?.push(...step.events);
            if (step.session === B && earlyB) earlyB.push(...step.events);
            else state = openSessionsReducer(state, { type: 'session', sessionId: step.session, action: { type: 'events', events: step.events } });
          } else if (step.kind === 'openB') {
            state = openSessionsReducer(state, { type: 'opened', info: infoB, events: earlyB ?? [] });
            earlyB = null;
            expect(state.active).toBe(B);
          } else {
            const before = state.active;
            state = openSessionsReducer(state, step.action);
            if (state.tabs.length === 1) expect(state.active).toBe(before);
          }
          // After every step: each open session is the one-batch fold of what it received, in tab order A, B.
          expect(state.tabs.map((tab) => tab.info.session_id)).toEqual(earlyB ? [A] : [A, B]);
          for (const tab of state.tabs) {
            const id = tab.info.session_id;
            const reference = folded(id === A ? infoA : infoB, delivered[id] ?? []);
            expect(tab.transcript).toEqual(reference.transcript);
            expect(markOf(tab)).toBe(markOf(reference));
          }
          expect(state.tabs.some((tab) => tab.info.session_id === state.active)).toBe(true);
        }
        if (earlyB) state = openSessionsReducer(state, { type: 'opened', info: infoB, events: earlyB });
        for (const tab of state.tabs) {
          expect(tab.transcript.running).toBe(false);
          expect(markOf(tab)).toBeNull();
          const texts = tab.transcript.items.flatMap((item) => (item.kind === 'assistant' ? [item.text] : []));
          const other = tab.info.session_id === A ? B : A;
          expect(texts.at(-1)).toMatch(new RegExp(`${tab.info.session_id} is done\\.$`));
          expect(texts.join(' ')).not.toContain(other);
        }
      }),
      { numRuns: 400 },
    );
  });
});

describe('the tabs', () => {
  const opened = (info: SessionInfo, state: OpenSessions = noSessions, replaces: string | null = null) =>
    openSessionsReducer(state, { type: 'opened', info, events: [], replaces });
  const infoC = sessionInfo({ session_id: 'session-c', cwd: '/work/a', folder_name: 'a' });
  const ids = (state: OpenSessions) => state.tabs.map((tab) => tab.info.session_id);

  it.each([
    ['a new session opens after the shown tab', () => opened(infoC, openSessionsReducer(opened(infoB, opened(infoA)), { type: 'activate', sessionId: A })), [A, 'session-c', B], 'session-c'],
    ['a replacing session takes the tab of the one it replaces', () => opened(infoC, opened(infoB, opened(infoA)), A), ['session-c', B], 'session-c'],
    ['a session opened again keeps its tab', () => opened(infoA, opened(infoB, opened(infoA))), [A, B], A],
    ['closing the shown tab shows the next', () => openSessionsReducer(openSessionsReducer(opened(infoB, opened(infoA)), { type: 'activate', sessionId: A }), { type: 'closed', sessionId: A }), [B], B],
    ['closing the last tab shows the one before', () => openSessionsReducer(opened(infoB, opened(infoA)), { type: 'closed', sessionId: B }), [A], A],
    ['closing a hidden tab keeps the shown one', () => openSessionsReducer(opened(infoB, opened(infoA)), { type: 'closed', sessionId: A }), [B], B],
    ['closing the only tab leaves none shown', () => openSessionsReducer(opened(infoA), { type: 'closed', sessionId: A }), [], null],
    ['cycling forward wraps to the first', () => openSessionsReducer(opened(infoB, opened(infoA)), { type: 'cycle', step: 1 }), [A, B], A],
    ['cycling back wraps to the last', () => openSessionsReducer(openSessionsReducer(opened(infoB, opened(infoA)), { type: 'activate', sessionId: A }), { type: 'cycle', step: -1 }), [A, B], B],
  ] as const)('%s', (_, make, tabs, active) => {
    const state = make();
    expect(ids(state)).toEqual(tabs);
    expect(state.active).toBe(active);
  });

  it('drops the events of a session that is not open', () => {
    const state = opened(infoA);
    const after = openSessionsReducer(state, { type: 'session', sessionId: B, action: { type: 'events', events: EVENTS_B } });
    expect(after).toBe(state);
  });

  it('marks a session waiting for the person before running', () => {
    const waiting = folded(infoA, EVENTS_A.slice(0, 7));
    expect(markOf(waiting)).toBe('waiting');
    expect(markOf(folded(infoA, EVENTS_A.slice(0, 8)))).toBe('running');
    expect(markOf(folded(infoA, EVENTS_A))).toBeNull();
  });
});

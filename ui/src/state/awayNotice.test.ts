// Tests of what a desktop notification says and when one is owed: a request newly on screen, a turn that ended,
// nothing on the first look at a session, and the same notices however the session's events were batched.
import { describe, expect, it } from 'vitest';
import type { ApprovalRequest, ElicitationRequest, PlanRequest, QuestionRequest } from '../generated/protocol';
import { noticeBetween, waitingOf, type Moment } from './awayNotice';

const approval = { id: 'a1', title: 'Bash: npm test', tool_name: 'Bash' } as ApprovalRequest;
const plan = { id: 'p1' } as PlanRequest;
const question = {
  id: 'q1',
  questions: [
    { question: 'Which port?', header: 'Port', options: [], multi_select: false },
    { question: 'Which host?', header: 'Host', options: [], multi_select: false },
  ],
} as unknown as QuestionRequest;
const form = { id: 'f1', server: 'db', message: 'Which database?' } as ElicitationRequest;

const at = (waiting: Moment['waiting'], turnsEnded: number, sessionId = 's1'): Moment => ({ sessionId, waiting, turnsEnded });

describe('waitingOf', () => {
  it('says what each kind of request waits for', () => {
    expect(waitingOf({ approval })).toEqual({ id: 'a1', text: 'Allow Bash: npm test?' });
    expect(waitingOf({ planReview: plan })).toEqual({ id: 'p1', text: 'A plan waits for your review.' });
    expect(waitingOf({ question })).toEqual({ id: 'q1', text: 'Which port? (and 1 more)' });
    expect(waitingOf({ form })).toEqual({ id: 'f1', text: 'db asks: Which database?' });
    expect(waitingOf({})).toBeNull();
  });
});

describe('noticeBetween', () => {
  const waiting = { id: 'a1', text: 'Allow Bash: npm test?' };
  it.each([
    ['nothing on the first look at a session', null, at(waiting, 3), null],
    ['nothing on the first look at another session', at(null, 0, 's0'), at(waiting, 1), null],
    ['a request newly on screen', at(null, 0), at(waiting, 0), 'waiting'],
    ['the same request again', at(waiting, 0), at(waiting, 0), null],
    ['a request that replaced another', at({ id: 'x', text: 'x' }, 0), at(waiting, 0), 'waiting'],
    ['a turn that ended', at(null, 1), at(null, 2), 'finished'],
    ['a turn that ended with a new request shows the request', at(null, 1), at(waiting, 2), 'waiting'],
    ['a request answered, no turn ended', at(waiting, 1), at(null, 1), null],
  ] as const)('%s', (_, before, now, expected) => {
    const notice = noticeBetween(before, now, 'api');
    if (expected === null) expect(notice).toBeNull();
    else if (expected === 'waiting') expect(notice).toEqual({ title: 'Tandem is waiting for you — api', body: waiting.text });
    else expect(notice?.title).toBe('Tandem finished — api');
  });

  it('gives one notice per request and per ended turn however the moments are sampled', () => {
    // A session's moments in order: two turns, the first asking twice, the second once.
    const r1 = { id: 'r1', text: 'one' };
    const r2 = { id: 'r2', text: 'two' };
    const r3 = { id: 'r3', text: 'three' };
    const moments: Moment[] = [at(null, 0), at(r1, 0), at(null, 0), at(r2, 0), at(null, 0), at(null, 1), at(r3, 1), at(null, 1), at(null, 2)];
    // Every way of batching: a sample keeps the first and the last moment and any subset of the others (a batch
    // delivers several events and the window renders only the state after it).
    const inner = moments.length - 2;
    for (let mask = 0; mask < 1 << inner; mask += 1) {
      const seen = [moments[0], ...moments.slice(1, -1).filter((_, i) => mask & (1 << i)), moments[moments.length - 1]].filter(
        (m): m is Moment => m !== undefined,
      );
      const notices = seen.slice(1).map((now, i) => noticeBetween(seen[i] ?? null, now, 'api')).filter((n) => n !== null);
      const requestsSeen = new Set(seen.flatMap((m) => (m.waiting ? [m.waiting.id] : []))).size;
      const waitingNotices = notices.filter((n) => n.title.startsWith('Tandem is waiting')).length;
      expect(waitingNotices, `mask ${mask}`).toBe(requestsSeen);
      // The last turn's end is always told, unless a request was the news of that same render.
      expect(notices.at(-1)?.title, `mask ${mask}`).toBe('Tandem finished — api');
    }
  });
});

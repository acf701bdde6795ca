// The status bar's budgets: the warning thresholds (a table), what the bar says, how a warning event folds into the
// counted budgets, and the stop notice — the same whatever batches the events arrive in.
import { describe, expect, it } from 'vitest';
import type { BudgetStatus, EventEnvelope, SessionEvent } from '../generated/protocol';
import { envelopes, readCall } from '../test/events';
import { budgetLevel, budgetMeter, budgetsShown, budgetStopNotice, type BudgetLevel } from './budget';
import { applyEvents } from './reduce';
import { emptyTranscript } from './transcript';

const day: BudgetStatus = { period: 'day', limit_usd: 5, spent_usd: 0, warn_percent: 80, on_limit: 'stop' };
const month: BudgetStatus = { period: 'month', limit_usd: 100, spent_usd: 41.5, warn_percent: 80, on_limit: 'warn' };

describe('budgetLevel', () => {
  const cases: [string, Partial<BudgetStatus>, BudgetLevel][] = [
    ['nothing spent', { spent_usd: 0 }, 'ok'],
    ['just under the warning share', { spent_usd: 3.99 }, 'ok'],
    ['at the warning share', { spent_usd: 4 }, 'warn'],
    ['past it', { spent_usd: 4.5 }, 'warn'],
    ['a cent under the limit', { spent_usd: 4.99 }, 'warn'],
    ['at the limit', { spent_usd: 5 }, 'reached'],
    ['past the limit', { spent_usd: 7.25 }, 'reached'],
    ['a warning share of 100% warns only at the limit', { spent_usd: 4.99, warn_percent: 100 }, 'ok'],
    ['a warning share of 1%', { spent_usd: 0.05, warn_percent: 1 }, 'warn'],
    ['a budget that warns only is still reached', { spent_usd: 5, on_limit: 'warn' }, 'reached'],
    ['a monthly budget at 90%', { period: 'month', limit_usd: 100, spent_usd: 90, warn_percent: 90 }, 'warn'],
    ['no limit never warns', { limit_usd: 0, spent_usd: 3 }, 'ok'],
  ];
  it.each(cases)('%s', (_name, change, want) => {
    expect(budgetLevel({ ...day, ...change })).toBe(want);
  });
});

describe('budgetMeter', () => {
  it.each([
    [{ ...day, spent_usd: 3.2 }, 'Today $3.20 / $5.00', 'ok', 'turns stop at $5.00'],
    [{ ...day, spent_usd: 4.2 }, 'Today $4.20 / $5.00', 'warn', '(84%)'],
    [{ ...day, spent_usd: 5.04 }, 'Today $5.04 / $5.00 reached', 'reached', 'turns stop before their next model request'],
    [{ ...month, spent_usd: 120 }, 'This month $120.00 / $100.00 reached', 'reached', 'only warns'],
  ] as const)('%o says %s', (status, text, level, title) => {
    const meter = budgetMeter(status);
    expect(meter.text).toBe(text);
    expect(meter.level).toBe(level);
    expect(meter.title).toContain(title);
  });
});

describe('budgetsShown', () => {
  const counted = [{ ...day, spent_usd: 3.2 }, month];
  it.each([
    ['nothing counted, no warning', null, null, false, []],
    ['the count alone', counted, null, true, [3.2, 41.5]],
    ['a newer warning spent more: it wins until the next count', counted, { ...day, spent_usd: 4.2 }, false, [4.2, 41.5]],
    ['a count that includes the warning wins', counted, { ...day, spent_usd: 4.2 }, true, [3.2, 41.5]],
    ['a warning that spent less than the count is older', counted, { ...day, spent_usd: 1 }, false, [3.2, 41.5]],
    ['a warning before any count is shown', null, { ...month, spent_usd: 85 }, false, [85]],
    ['a warning of a budget the count lacks is added in order', [month], { ...day, spent_usd: 4.5 }, false, [4.5, 41.5]],
  ] as const)('%s', (_name, fetched, warning, current, spent) => {
    const shown = budgetsShown(fetched, warning ? { status: warning, reached: false } : null, current);
    expect(shown.map((status) => status.spent_usd)).toEqual(spent);
  });
});

/** Every way of cutting `items` into consecutive non-empty batches. */
function batchings<T>(items: readonly T[]): T[][][] {
  if (items.length === 0) return [[]];
  const out: T[][][] = [];
  for (let cut = 1; cut <= items.length; cut += 1) {
    for (const rest of batchings(items.slice(cut))) out.push([items.slice(0, cut), ...rest]);
  }
  return out;
}

describe('the budget warning and stop from events', () => {
  const warning: SessionEvent = { type: 'budget_warning', status: { ...day, spent_usd: 4.2 }, reached: false };
  const reached: SessionEvent = { type: 'budget_warning', status: { ...day, spent_usd: 5.04 }, reached: true };
  const turn: SessionEvent[] = [
    { type: 'turn_started', prompt: 'spend' },
    ...readCall('toolu_1', 'src/lib.rs'),
    warning,
    ...readCall('toolu_2', 'src/main.rs'),
    reached,
    { type: 'notice', message: 'The daily budget of $5.00 is reached' },
    { type: 'turn_ended', stop_reason: 'budget_reached' },
  ];

  it('ends with the reached budget and the stop notice in every batching', () => {
    const all = envelopes(turn);
    const cuts = batchings(all);
    expect(cuts.length).toBe(2 ** (all.length - 1));
    for (const batches of cuts) {
      const state = batches.reduce((each: ReturnType<typeof emptyTranscript>, batch: EventEnvelope[]) => applyEvents(each, batch), emptyTranscript());
      expect(state.budget).toEqual({ status: { ...day, spent_usd: 5.04 }, reached: true });
      expect(budgetStopNotice(state)).toBe('Turn stopped: the daily budget of $5.00 is reached');
    }
  });

  it('shows the warning, without a stop notice, after each prefix of the turn in every batching', () => {
    // Up to the first warning, then each event after it: the latest warning shown, no stop until the turn ends so.
    const all = envelopes(turn);
    const at = turn.indexOf(warning);
    for (let end = at + 1; end < all.length; end += 1) {
      const prefix = all.slice(0, end);
      const want = end > turn.indexOf(reached) ? 5.04 : 4.2;
      for (const batches of batchings(prefix)) {
        const state = batches.reduce((each: ReturnType<typeof emptyTranscript>, batch: EventEnvelope[]) => applyEvents(each, batch), emptyTranscript());
        expect(state.budget?.status.spent_usd).toBe(want);
        expect(budgetStopNotice(state)).toBeNull();
      }
    }
  });

  it('drops the stop notice when a new turn starts, keeping the warning', () => {
    const state = applyEvents(emptyTranscript(), envelopes([...turn, { type: 'turn_started', prompt: 'again' }]));
    expect(budgetStopNotice(state)).toBeNull();
    expect(state.budget?.reached).toBe(true);
  });

  it('says a budget stopped the turn even without a warning before it', () => {
    expect(budgetStopNotice({ running: false, lastStopReason: 'budget_reached', budget: null })).toBe('Turn stopped: a budget is reached');
  });
});

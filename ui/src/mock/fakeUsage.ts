// The fake backend's usage: a report of two folders, three models and ten days (the `usage_report` command), the
// budgets of the fake settings with what was spent today and this month (`budget_status`), and the `/spend` turn,
// which crosses the daily budget's warning share and then reaches it with `onLimit: stop`.
import type { BudgetLimits, BudgetStatus, TurnStopReason, UsageReport, UsageTotals } from '../generated/protocol';
import { FAKE_ROOT } from './fakeProject';

function totals(cost: number, requests: number): UsageTotals {
  return {
    requests,
    input_tokens: requests * 1200,
    output_tokens: requests * 300,
    cache_creation_input_tokens: requests * 2000,
    cache_read_input_tokens: requests * 20_000,
    cost_usd: cost,
  };
}

/** The budget of the fake settings: $5 a day, $100 a month, warned at 80%, stopping at the limit. */
export const FAKE_LIMITS: BudgetLimits = { daily_usd: 5, monthly_usd: 100, warn_percent: 80, on_limit: 'stop' };

/** What was spent today and this month in the fake backend (the `/spend` turn spends more). */
export const fakeSpent = { day: 3.2, month: 41.5 };

/** The budgets `limits` set, with what was spent in their period, as the engine counts them. */
export function budgetStatuses(limits: BudgetLimits): BudgetStatus[] {
  const status = (period: 'day' | 'month', limit: number | null, spent: number): BudgetStatus[] =>
    limit === null ? [] : [{ period, limit_usd: limit, spent_usd: spent, warn_percent: limits.warn_percent, on_limit: limits.on_limit }];
  return [...status('day', limits.daily_usd, fakeSpent.day), ...status('month', limits.monthly_usd, fakeSpent.month)];
}

/** Why the engine would refuse to save `limits`, in its words; null when it would save them. */
export function budgetProblem(limits: BudgetLimits): string | null {
  for (const [name, limit] of [['daily', limits.daily_usd], ['monthly', limits.monthly_usd]] as const) {
    if (limit !== null && !(Number.isFinite(limit) && limit > 0)) {
      return `the ${name} budget must be a positive number of dollars (leave it empty for none)`;
    }
  }
  if (!Number.isInteger(limits.warn_percent) || limits.warn_percent < 1 || limits.warn_percent > 100) {
    return 'the warning share must be a whole percent from 1 to 100';
  }
  return null;
}

/** The daily budget of the fake settings as the report starts. */
export const FAKE_BUDGET: BudgetStatus = { period: 'day', limit_usd: 5, spent_usd: 3.2, warn_percent: 80, on_limit: 'stop' };

/** The report from `since` on: the days before it are left out, as the engine does. */
export function usageReport(since: string | null, now: Date, limits: BudgetLimits = FAKE_LIMITS): UsageReport {
  const day = (back: number) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - back)).toISOString().slice(0, 10);
  // Ten days back, without requests three and six days ago.
  const byDay = [9, 8, 7, 5, 4, 2, 1, 0]
    .map((back, index) => ({ key: day(back), totals: totals(0.4 + index * 0.35, 10 + index * 4) }))
    .filter((row) => since === null || row.key >= since);
  const sum = byDay.reduce(
    (all, row) => ({
      requests: all.requests + row.totals.requests,
      input_tokens: all.input_tokens + row.totals.input_tokens,
      output_tokens: all.output_tokens + row.totals.output_tokens,
      cache_creation_input_tokens: all.cache_creation_input_tokens + row.totals.cache_creation_input_tokens,
      cache_read_input_tokens: all.cache_read_input_tokens + row.totals.cache_read_input_tokens,
      cost_usd: all.cost_usd + row.totals.cost_usd,
    }),
    totals(0, 0),
  );
  const share = (part: number): UsageTotals => ({
    requests: Math.round(sum.requests * part),
    input_tokens: Math.round(sum.input_tokens * part),
    output_tokens: Math.round(sum.output_tokens * part),
    cache_creation_input_tokens: Math.round(sum.cache_creation_input_tokens * part),
    cache_read_input_tokens: Math.round(sum.cache_read_input_tokens * part),
    cost_usd: sum.cost_usd * part,
  });
  return {
    since,
    folder: null,
    totals: sum,
    by_day: byDay,
    by_folder: [
      { key: FAKE_ROOT, totals: share(0.7) },
      { key: '/home/dev/projects/website', totals: share(0.3) },
    ],
    by_model: [
      { key: 'claude-sonnet-4-5', totals: share(0.8) },
      { key: 'claude-haiku-4-5', totals: share(0.2) },
    ],
    sessions: [
      { session_id: 'stored-1', title: 'Add retries to the HTTP client', folder: FAKE_ROOT, totals: share(0.4) },
      { session_id: 'stored-2', title: 'Fix the flaky login test', folder: FAKE_ROOT, totals: share(0.3) },
    ],
    tool_calls: [
      {
        session_id: 'stored-1',
        tool_use_id: 'toolu_read_big',
        name: 'Read',
        result_tokens: 18_400,
        requests: 23,
        cache_read_tokens: 386_400,
        cache_write_tokens: 18_400,
        fresh_tokens: 18_400,
        cost_usd: 0.2295,
      },
      {
        session_id: 'stored-2',
        tool_use_id: 'toolu_bash_log',
        name: 'Bash',
        result_tokens: 6_100,
        requests: 12,
        cache_read_tokens: 67_100,
        cache_write_tokens: 6_100,
        fresh_tokens: 0,
        cost_usd: 0.0430,
      },
    ],
    budgets: budgetStatuses(limits),
  };
}

/** What the `/spend` turns send: a warning at 84%, then the budget reached and the turn stopped. `spendTo(usd)`
 * makes what the fake backend counts as spent today `usd` (this month's grows as much), as the turn's requests would. */
export function spendEvents(): { warning: BudgetStatus; reached: BudgetStatus; stopReason: TurnStopReason; notice: string; spendTo: (usd: number) => void } {
  return {
    spendTo: (usd) => {
      fakeSpent.month += Math.max(0, usd - fakeSpent.day);
      fakeSpent.day = Math.max(fakeSpent.day, usd);
    },
    warning: { ...FAKE_BUDGET, spent_usd: 4.2 },
    reached: { ...FAKE_BUDGET, spent_usd: 5.04 },
    stopReason: 'budget_reached',
    notice:
      'The daily budget of $5.00 is reached ($5.04 spent): the turn was stopped before its next model request. Raise the budget, or make it warn only (the Budget group of Settings in the window; "onLimit": "warn" under "budget" in the settings file), to go on.',
  };
}

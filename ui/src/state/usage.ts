// The usage view's state: the periods it offers and the day they start (UTC, as the report counts days), the bars
// of the chart by day.
import type { UsageRow } from '../generated/protocol';

/** The periods the usage view offers. */
export type UsageRange = '7d' | '30d' | 'all';

export const RANGE_LABELS: Record<UsageRange, string> = {
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  all: 'Everything',
};

/** The first day (YYYY-MM-DD, UTC) of `range` ending on `now`'s UTC day; null for everything. */
export function sinceDay(range: UsageRange, now: Date): string | null {
  if (range === 'all') return null;
  const days = range === '7d' ? 7 : 30;
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)));
  return start.toISOString().slice(0, 10);
}

/** One bar of the chart: its day, its place and height in the chart's units, and what it cost. */
export type DayBar = { day: string; x: number; width: number; height: number; costUsd: number; requests: number };

/**
 * The bars of `rows` (oldest first) in a chart `width` × `height`: one slot per day from the first to the last
 * (days without requests are empty slots, so the time axis stays even), each bar's height proportional to the
 * day's cost — or to its tokens when nothing had a price.
 */
export function dayBars(rows: readonly UsageRow[], width: number, height: number): DayBar[] {
  if (rows.length === 0) return [];
  const first = rows[0]?.key ?? '';
  const last = rows[rows.length - 1]?.key ?? first;
  const dayMs = 86_400_000;
  const slots = Math.round((Date.parse(`${last}T00:00:00Z`) - Date.parse(`${first}T00:00:00Z`)) / dayMs) + 1;
  const anyCost = rows.some((row) => row.totals.cost_usd > 0);
  const value = (row: UsageRow) =>
    anyCost
      ? row.totals.cost_usd
      : row.totals.input_tokens + row.totals.output_tokens + row.totals.cache_read_input_tokens + row.totals.cache_creation_input_tokens;
  const top = Math.max(...rows.map(value), 0);
  const slot = width / Math.max(slots, 1);
  return rows.map((row) => {
    const index = Math.round((Date.parse(`${row.key}T00:00:00Z`) - Date.parse(`${first}T00:00:00Z`)) / dayMs);
    return {
      day: row.key,
      x: index * slot + slot * 0.1,
      width: slot * 0.8,
      height: top > 0 ? (value(row) / top) * height : 0,
      costUsd: row.totals.cost_usd,
      requests: row.totals.requests,
    };
  });
}

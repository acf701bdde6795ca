import { describe, expect, it } from 'vitest';
import type { UsageRow, UsageTotals } from '../generated/protocol';
import { dayBars, sinceDay } from './usage';

function totals(cost: number, tokens = 0): UsageTotals {
  return { requests: 1, input_tokens: tokens, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, cost_usd: cost };
}

function row(key: string, cost: number, tokens = 0): UsageRow {
  return { key, totals: totals(cost, tokens) };
}

describe('sinceDay', () => {
  const now = new Date('2026-12-05T00:30:00Z');
  it.each([
    ['7d', '2026-11-29'],
    ['30d', '2026-11-06'],
    ['all', null],
  ] as const)('%s starts on %s (UTC days)', (range, want) => {
    expect(sinceDay(range, now)).toBe(want);
  });
});

describe('dayBars', () => {
  it('keeps empty days as empty slots and scales to the costliest day', () => {
    const bars = dayBars([row('2026-12-01', 2), row('2026-12-04', 4)], 400, 100);
    expect(bars.map((bar) => bar.day)).toEqual(['2026-12-01', '2026-12-04']);
    // Four slots of 100: the second bar is in the fourth.
    expect(bars[0]?.x).toBeCloseTo(10);
    expect(bars[1]?.x).toBeCloseTo(310);
    expect(bars[0]?.width).toBeCloseTo(80);
    expect(bars.map((bar) => bar.height)).toEqual([50, 100]);
  });

  it('scales by tokens when nothing had a price', () => {
    const bars = dayBars([row('2026-12-01', 0, 100), row('2026-12-02', 0, 400)], 200, 80);
    expect(bars.map((bar) => bar.height)).toEqual([20, 80]);
  });

  it('has no bars without rows', () => {
    expect(dayBars([], 100, 100)).toEqual([]);
  });
});

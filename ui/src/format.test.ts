// Tests of the formatting helpers.
import { describe, expect, it } from 'vitest';
import { baseName, formatCost, formatRelativeTime, formatTokens, formatWait, prettyJson } from './format';

describe('format', () => {
  it.each([
    [0, '0'],
    [950, '950'],
    [1000, '1k'],
    [12_345, '12.3k'],
    [123_456, '123k'],
    [2_500_000, '2.5M'],
  ])('formatTokens(%d) = %s', (count, text) => expect(formatTokens(count)).toBe(text));

  it.each([
    [0, '$0.00'],
    [0.0042, '$0.0042'],
    [0.42, '$0.42'],
    [12.3, '$12.30'],
  ])('formatCost(%d) = %s', (usd, text) => expect(formatCost(usd)).toBe(text));

  it.each([
    [3000, '3 s'],
    [1500, '1.5 s'],
    [60_000, '1 min'],
    [90_000, '1 min 30 s'],
  ])('formatWait(%d) = %s', (ms, text) => expect(formatWait(ms)).toBe(text));

  it.each([
    ['/home/me/project', 'project'],
    ['/home/me/project/', 'project'],
    ['C:\\Users\\me\\repo', 'repo'],
    ['/', '/'],
  ])('baseName(%s) = %s', (path, name) => expect(baseName(path)).toBe(name));

  it('pretty-prints JSON', () => {
    expect(prettyJson({ a: 1 })).toBe('{\n  "a": 1\n}');
    expect(prettyJson(undefined)).toBe('');
  });
});

describe('formatRelativeTime', () => {
  const now = Date.UTC(2026, 5, 15, 12, 0, 0);
  it.each([
    [now - 10_000, 'just now'],
    [now - 5 * 60_000, '5 min ago'],
    [now - 3 * 3_600_000, '3 h ago'],
    [now - 30 * 3_600_000, 'yesterday'],
    [now - 4 * 86_400_000, '4 days ago'],
  ])('%s → %s', (ms, text) => {
    expect(formatRelativeTime(ms, now)).toBe(text);
  });
  it('shows the date beyond a week', () => {
    expect(formatRelativeTime(now - 30 * 86_400_000, now)).toMatch(/2026/);
  });
});

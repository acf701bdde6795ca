// The settings dialog's budget fields: what is saved, and which field a bad value names.
import { describe, expect, it } from 'vitest';
import { budgetForm, parseBudget, type BudgetForm } from './budgetForm';

const blank: BudgetForm = { daily: '', monthly: '', warnPercent: '80', onLimit: 'warn' };

describe('parseBudget', () => {
  it.each([
    ['no budget', {}, { daily_usd: null, monthly_usd: null, warn_percent: 80, on_limit: 'warn' }],
    ['a daily budget', { daily: '5' }, { daily_usd: 5, monthly_usd: null, warn_percent: 80, on_limit: 'warn' }],
    ['dollars with a sign and cents', { daily: ' $2.50 ', monthly: '100', onLimit: 'stop' }, { daily_usd: 2.5, monthly_usd: 100, warn_percent: 80, on_limit: 'stop' }],
    ['cents alone', { monthly: '.75' }, { daily_usd: null, monthly_usd: 0.75, warn_percent: 80, on_limit: 'warn' }],
    ['a percent sign', { daily: '5', warnPercent: '90%' }, { daily_usd: 5, monthly_usd: null, warn_percent: 90, on_limit: 'warn' }],
  ] as const)('saves %s', (_name, change, limits) => {
    expect(parseBudget({ ...blank, ...change })).toEqual({ ok: true, limits });
  });

  it.each([
    ['zero', { daily: '0' }, 'daily', 'The daily budget "0" is not a positive amount of dollars'],
    ['a negative amount', { monthly: '-5' }, 'monthly', 'The monthly budget "-5" is not'],
    ['words', { daily: 'five' }, 'daily', '"five"'],
    ['a comma', { daily: '1,5' }, 'daily', '"1,5"'],
    ['two amounts', { monthly: '5 10' }, 'monthly', '"5 10"'],
    ['a share of 0', { warnPercent: '0' }, 'warnPercent', 'whole percent from 1 to 100'],
    ['a share over 100', { warnPercent: '120' }, 'warnPercent', '"120"'],
    ['a fractional share', { warnPercent: '80.5' }, 'warnPercent', '"80.5"'],
    ['no share', { warnPercent: '' }, 'warnPercent', 'whole percent'],
  ] as const)('refuses %s', (_name, change, field, error) => {
    const parsed = parseBudget({ ...blank, ...change });
    expect(parsed).toMatchObject({ ok: false, field });
    expect(parsed.ok ? '' : parsed.error).toContain(error);
  });

  it('shows what it saved', () => {
    const limits = { daily_usd: 2.5, monthly_usd: null, warn_percent: 90, on_limit: 'stop' } as const;
    expect(budgetForm(limits)).toEqual({ daily: '2.5', monthly: '', warnPercent: '90', onLimit: 'stop' });
    expect(parseBudget(budgetForm(limits))).toEqual({ ok: true, limits });
  });
});

// The settings dialog's budget fields as typed (dollars and a percent, as text) and the budget they describe: an
// empty limit is none; anything else must be a positive number of dollars, and the warning share a whole percent
// from 1 to 100 — otherwise the field and a clear error are named, and nothing is saved.
import type { BudgetAction, BudgetLimits } from '../generated/protocol';

export type BudgetForm = { daily: string; monthly: string; warnPercent: string; onLimit: BudgetAction };

export type BudgetField = 'daily' | 'monthly' | 'warnPercent';

export type ParsedBudget = { ok: true; limits: BudgetLimits } | { ok: false; field: BudgetField; error: string };

/** The fields showing `limits` (a limit without cents shows as a whole number). */
export function budgetForm(limits: BudgetLimits): BudgetForm {
  const dollars = (usd: number | null) => (usd === null ? '' : String(usd));
  return { daily: dollars(limits.daily_usd), monthly: dollars(limits.monthly_usd), warnPercent: String(limits.warn_percent), onLimit: limits.on_limit };
}

/** A limit as typed: empty is none; `$` and spaces around are allowed. */
function parseDollars(text: string): number | null | undefined {
  const trimmed = text.trim().replace(/^\$\s*/, '');
  if (trimmed === '') return null;
  if (!/^\d+(\.\d*)?$|^\.\d+$/.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

/** The budget `form` describes, or the first field that is wrong and why. */
export function parseBudget(form: BudgetForm): ParsedBudget {
  const daily = parseDollars(form.daily);
  if (daily === undefined) return { ok: false, field: 'daily', error: `The daily budget "${form.daily.trim()}" is not a positive amount of dollars (leave it empty for none).` };
  const monthly = parseDollars(form.monthly);
  if (monthly === undefined) return { ok: false, field: 'monthly', error: `The monthly budget "${form.monthly.trim()}" is not a positive amount of dollars (leave it empty for none).` };
  const percentText = form.warnPercent.trim().replace(/%$/, '');
  const percent = /^\d+$/.test(percentText) ? Number(percentText) : NaN;
  if (!(percent >= 1 && percent <= 100)) return { ok: false, field: 'warnPercent', error: `The warning share "${form.warnPercent.trim()}" must be a whole percent from 1 to 100.` };
  return { ok: true, limits: { daily_usd: daily, monthly_usd: monthly, warn_percent: percent, on_limit: form.onLimit } };
}

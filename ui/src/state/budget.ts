// The status bar's budgets: how urgent each budget is (under its warning share, past it, reached), what the bar says
// of it, which budgets to show (those the backend counted, with a warning event that arrived since folded in), and
// the notice of a turn the budget stopped.
import type { BudgetStatus } from '../generated/protocol';
import { formatCost } from '../format';
import type { Transcript } from './transcript';

/** How urgent a budget is: under its warning share, past it, or reached. */
export type BudgetLevel = 'ok' | 'warn' | 'reached';

/** The level of `status`, as the engine decides it (`BudgetStatus::warned` and `reached`). */
export function budgetLevel(status: BudgetStatus): BudgetLevel {
  if (!(status.limit_usd > 0)) return 'ok';
  if (status.spent_usd >= status.limit_usd) return 'reached';
  if (status.spent_usd * 100 >= status.limit_usd * status.warn_percent) return 'warn';
  return 'ok';
}

/** The share of the budget spent, in whole percent. */
export function budgetPercent(status: BudgetStatus): number {
  return status.limit_usd > 0 ? Math.floor((status.spent_usd / status.limit_usd) * 100) : 0;
}

/** What the status bar shows for one budget: its text, its level (past `ok` the bar marks it with a warning sign)
 * and a title saying what happens at the limit. */
export function budgetMeter(status: BudgetStatus): { text: string; level: BudgetLevel; title: string } {
  const level = budgetLevel(status);
  const when = status.period === 'day' ? 'Today' : 'This month';
  const which = status.period === 'day' ? 'daily' : 'monthly';
  const spent = `${formatCost(status.spent_usd)} of the ${which} budget of ${formatCost(status.limit_usd)} spent (${budgetPercent(status)}%)`;
  const stops = status.on_limit === 'stop';
  const then =
    level === 'reached'
      ? stops
        ? ': turns stop before their next model request until the budget is raised or the period ends'
        : ': turns go on (the budget only warns)'
      : `; warned at ${status.warn_percent}%, ${stops ? 'turns stop' : 'only a warning'} at ${formatCost(status.limit_usd)}`;
  return {
    text: `${when} ${formatCost(status.spent_usd)} / ${formatCost(status.limit_usd)}${level === 'reached' ? ' reached' : ''}`,
    level,
    title: `${spent}${then}. Click for the usage view.`,
  };
}

/**
 * The budgets to show: what the backend last counted (`fetched`, day first); while a count that includes the
 * latest warning event has not arrived (`current` false), that warning's status replaces its period's when it
 * spent more (it is newer), or is added when the count did not have it.
 */
export function budgetsShown(
  fetched: readonly BudgetStatus[] | null,
  warning: Transcript['budget'],
  current: boolean,
): BudgetStatus[] {
  const shown = [...(fetched ?? [])];
  if (!warning || current) return shown;
  const index = shown.findIndex((status) => status.period === warning.status.period);
  if (index < 0) shown.push(warning.status);
  else if ((shown[index]?.spent_usd ?? 0) < warning.status.spent_usd) shown[index] = warning.status;
  return shown.sort((a, b) => (a.period === b.period ? 0 : a.period === 'day' ? -1 : 1));
}

/**
 * The notice of a turn the budget stopped: shown while no turn runs after the last turn ended with
 * `budget_reached`, naming the budget of the last warning (the engine sends it, reached, before the stop).
 */
export function budgetStopNotice(transcript: Pick<Transcript, 'running' | 'lastStopReason' | 'budget'>): string | null {
  if (transcript.running || transcript.lastStopReason !== 'budget_reached') return null;
  const status = transcript.budget?.status;
  if (!status) return 'Turn stopped: a budget is reached';
  return `Turn stopped: the ${status.period === 'day' ? 'daily' : 'monthly'} budget of ${formatCost(status.limit_usd)} is reached`;
}

// The budgets the status bar shows: counted by the backend (`budget_status`) when the session opens, after each
// response's usage, each turn's end, each budget warning and each save of the settings; a warning event that arrived
// since the last count is folded in until the next count answers (state/budget.ts).
import { useMemo } from 'react';
import type { BudgetStatus } from '../../generated/protocol';
import * as ipc from '../../ipc';
import { budgetsShown } from '../../state/budget';
import type { Transcript } from '../../state/transcript';
import { useLoad } from '../useLoad';

export function useBudgets(
  transcript: Pick<Transcript, 'budget' | 'turnsEnded' | 'usage'>,
  settingsSaves: number,
  load: () => Promise<BudgetStatus[] | null> = ipc.budgetStatus,
): BudgetStatus[] {
  const { budget: warning, turnsEnded, usage } = transcript;
  const warningKey = warning ? `${warning.status.period}:${warning.status.spent_usd}:${warning.reached}` : '';
  const refreshKey = `${turnsEnded}|${usage?.costUsd ?? 0}|${warningKey}|${settingsSaves}`;
  const { data, loading, error } = useLoad(load, refreshKey);
  return useMemo(() => budgetsShown(data, warning, !loading && error === null), [data, warning, loading, error]);
}

// The status bar's budgets: each budget of the settings with what was spent in its period ("Today $3.20 / $5.00"),
// dim under its warning share, amber past it, red once reached; and, after a turn the budget stopped, a notice
// saying so. Each opens the usage view.
import type { BudgetStatus } from '../../generated/protocol';
import { budgetMeter } from '../../state/budget';
import { Icon } from '../common/Icon';

export type BudgetMetersProps = {
  budgets: readonly BudgetStatus[];
  /** The notice of a turn the budget stopped, if the last one was. */
  stopped: string | null;
  onClick?: () => void;
};

export function BudgetMeters({ budgets, stopped, onClick }: BudgetMetersProps) {
  return (
    <>
      {stopped && (
        <button
          type="button"
          className="status-item status-trust status-budget-reached"
          data-testid="budget-stopped"
          role="status"
          title="The engine stopped the turn before its next model request. Raise the budget in the settings, or set it to warn only, to go on."
          onClick={onClick}
        >
          <Icon name="stop" /> {stopped}
        </button>
      )}
      {budgets.map((status) => {
        const meter = budgetMeter(status);
        return (
          <button
            key={status.period}
            type="button"
            className={`status-item status-trust status-budget-${meter.level}`}
            data-testid="budget-meter"
            data-period={status.period}
            data-level={meter.level}
            title={meter.title}
            onClick={onClick}
          >
            {meter.level !== 'ok' && <Icon name="warning" />} {meter.text}
          </button>
        );
      })}
    </>
  );
}

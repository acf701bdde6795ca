// The settings dialog's budget: a limit per UTC day and per UTC month (empty: none), the share at which the status
// bar warns, and whether reaching a limit only warns or stops turns before their next model request.
import type { BudgetAction } from '../../generated/protocol';
import type { BudgetField, BudgetForm } from '../../state/budgetForm';

export type BudgetFieldsProps = {
  form: BudgetForm;
  onChange: (form: BudgetForm) => void;
  /** The field the last save found wrong, marked invalid. */
  invalid: BudgetField | null;
};

export function BudgetFields({ form, onChange, invalid }: BudgetFieldsProps) {
  const set = <K extends keyof BudgetForm>(name: K, value: BudgetForm[K]) => onChange({ ...form, [name]: value });
  return (
    <fieldset className="settings-group" data-testid="settings-budget">
      <legend>Budget</legend>
      <label className="settings-field">
        <span>Per day ($)</span>
        <input
          type="text"
          inputMode="decimal"
          data-testid="settings-budget-daily"
          aria-invalid={invalid === 'daily'}
          value={form.daily}
          placeholder="no daily budget"
          onChange={(event) => set('daily', event.target.value)}
        />
      </label>
      <label className="settings-field">
        <span>Per month ($)</span>
        <input
          type="text"
          inputMode="decimal"
          data-testid="settings-budget-monthly"
          aria-invalid={invalid === 'monthly'}
          value={form.monthly}
          placeholder="no monthly budget"
          onChange={(event) => set('monthly', event.target.value)}
        />
      </label>
      <label className="settings-field">
        <span>Warn at (%)</span>
        <input
          type="text"
          inputMode="numeric"
          data-testid="settings-budget-warn"
          aria-invalid={invalid === 'warnPercent'}
          value={form.warnPercent}
          onChange={(event) => set('warnPercent', event.target.value)}
        />
      </label>
      <label className="settings-field">
        <span>At the limit</span>
        <select data-testid="settings-budget-on-limit" value={form.onLimit} onChange={(event) => set('onLimit', event.target.value as BudgetAction)}>
          <option value="warn">Warn only</option>
          <option value="stop">Stop turns before their next request</option>
        </select>
      </label>
      <p className="settings-note dim">
        UTC days and months, over every session of every folder. The status bar shows what was spent against each budget, warning from the share above.
      </p>
    </fieldset>
  );
}

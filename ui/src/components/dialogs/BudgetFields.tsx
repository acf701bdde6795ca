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
  const fieldProps = { form, invalid, set };
  return (
    <fieldset className="settings-group" data-testid="settings-budget">
      <legend>Budget</legend>
      <TextField label="Per day ($)" field="daily" testId="settings-budget-daily" decimal placeholder="no daily budget" {...fieldProps} />
      <TextField label="Per month ($)" field="monthly" testId="settings-budget-monthly" decimal placeholder="no monthly budget" {...fieldProps} />
      <TextField label="Warn at (%)" field="warnPercent" testId="settings-budget-warn" {...fieldProps} />
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

type TextFieldProps = {
  label: string;
  field: BudgetField;
  testId: string;
  /** Dollars (a decimal keyboard) rather than a whole number. */
  decimal?: boolean;
  placeholder?: string;
  form: BudgetForm;
  invalid: BudgetField | null;
  set: (name: BudgetField, value: string) => void;
};

/** One of the budget's text fields, marked invalid when the last save found it wrong. */
function TextField({ label, field, testId, decimal = false, placeholder, form, invalid, set }: TextFieldProps) {
  return (
    <label className="settings-field">
      <span>{label}</span>
      <input
        type="text"
        inputMode={decimal ? 'decimal' : 'numeric'}
        data-testid={testId}
        aria-invalid={invalid === field}
        value={form[field]}
        placeholder={placeholder}
        onChange={(event) => set(field, event.target.value)}
      />
    </label>
  );
}

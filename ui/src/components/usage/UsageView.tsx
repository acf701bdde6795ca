// The usage view: what the stored sessions' model requests cost over a period (7 days, 30 days, everything; UTC
// days) — the totals, a bar chart by day, the tables by folder and by model, the costliest sessions and tool calls
// (what each call's result cost in the requests that carried it afterwards), and the budgets of the settings with
// what was spent in their period. Opened from the status bar's cost; Esc closes.
import { useCallback, useRef, useState } from 'react';
import type { UsageReport, UsageRow, UsageTotals } from '../../generated/protocol';
import { formatCost, formatTokens } from '../../format';
import { useLoad } from '../../hooks/useLoad';
import { budgetLevel } from '../../state/budget';
import { RANGE_LABELS, sinceDay, type UsageRange } from '../../state/usage';
import { ErrorBanner } from '../common/ErrorBanner';
import { Modal, ModalTitle } from '../dialogs/Modal';
import { DayChart } from './DayChart';

export type UsageViewProps = {
  /** The report from `since` (YYYY-MM-DD, UTC) on; null: everything. */
  load: (since: string | null) => Promise<UsageReport>;
  onClose: () => void;
  /** Today, for the periods (tests fix it). */
  now?: () => Date;
};

/** "1 request", "7 requests". */
function requests(count: number): string {
  return `${count} ${count === 1 ? 'request' : 'requests'}`;
}

function tokens(t: UsageTotals): string {
  return formatTokens(t.input_tokens + t.cache_read_input_tokens + t.cache_creation_input_tokens + t.output_tokens);
}

function RowsTable({ title, rows, testId }: { title: string; rows: readonly UsageRow[]; testId: string }) {
  if (rows.length === 0) return null;
  return (
    <section className="usage-section">
      <h3 className="rules-heading">{title}</h3>
      <table className="usage-table" data-testid={testId}>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              <td className="usage-key">{row.key}</td>
              <td className="usage-num">{formatCost(row.totals.cost_usd)}</td>
              <td className="usage-num dim">{requests(row.totals.requests)}</td>
              <td className="usage-num dim">{tokens(row.totals)} tokens</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

export function UsageView({ load, onClose, now = () => new Date() }: UsageViewProps) {
  const closeRef = useRef<HTMLButtonElement>(null);
  const [range, setRange] = useState<UsageRange>('30d');
  const since = sinceDay(range, now());
  const loadRange = useCallback(() => load(since), [load, since]);
  const { data: report, error } = useLoad(loadRange);
  return (
    <Modal className="usage-view" onEscape={onClose} initialFocus={closeRef} data-testid="usage-view">
      <header className="modal-header">
        <ModalTitle className="modal-title">Usage</ModalTitle>
        <div className="usage-ranges" role="group" aria-label="Period">
          {(Object.keys(RANGE_LABELS) as UsageRange[]).map((each) => (
            <button
              key={each}
              type="button"
              className={`button${each === range ? ' is-active' : ''}`}
              aria-pressed={each === range}
              data-testid={`usage-range-${each}`}
              onClick={() => setRange(each)}
            >
              {RANGE_LABELS[each]}
            </button>
          ))}
        </div>
        <span className="status-spacer" />
        <button ref={closeRef} type="button" className="button" data-testid="usage-close" onClick={onClose}>
          Close <kbd>Esc</kbd>
        </button>
      </header>
      {error && <ErrorBanner message={error} />}
      {report && (
        <div className="usage-body">
          <p className="usage-total" data-testid="usage-total">
            <strong>{formatCost(report.totals.cost_usd)}</strong>{' '}
            <span className="dim">
              {requests(report.totals.requests)} · {formatTokens(report.totals.input_tokens)} input · {formatTokens(report.totals.output_tokens)}{' '}
              output · {formatTokens(report.totals.cache_read_input_tokens)} cache read · {formatTokens(report.totals.cache_creation_input_tokens)} cache
              write {report.since ? `since ${report.since} (UTC)` : ''}
            </span>
          </p>
          {report.budgets.length > 0 && (
            <ul className="usage-budgets" data-testid="usage-budgets">
              {report.budgets.map((budget) => {
                const percent = budget.limit_usd > 0 ? Math.min(100, (budget.spent_usd / budget.limit_usd) * 100) : 0;
                const level = budgetLevel(budget);
                return (
                  <li key={budget.period} className={`usage-budget usage-budget-${level}`} data-testid="usage-budget" data-level={level}>
                    {budget.period === 'day' ? 'Today' : 'This month'}: {formatCost(budget.spent_usd)} of {formatCost(budget.limit_usd)}
                    <span className="usage-budget-bar" aria-hidden="true">
                      <span style={{ width: `${percent}%` }} />
                    </span>
                    <span className="dim">{budget.on_limit === 'stop' ? 'stops at the limit' : 'warns only'}</span>
                  </li>
                );
              })}
            </ul>
          )}
          <DayChart rows={report.by_day} />
          <RowsTable title="By folder" rows={report.by_folder} testId="usage-by-folder" />
          <RowsTable title="By model" rows={report.by_model} testId="usage-by-model" />
          {report.sessions.length > 0 && (
            <section className="usage-section">
              <h3 className="rules-heading">Costliest sessions</h3>
              <table className="usage-table" data-testid="usage-sessions">
                <tbody>
                  {report.sessions.map((each) => (
                    <tr key={each.session_id}>
                      <td className="usage-key" title={each.folder}>
                        {each.title || '(untitled)'}
                      </td>
                      <td className="usage-num">{formatCost(each.totals.cost_usd)}</td>
                      <td className="usage-num dim">{requests(each.totals.requests)}</td>
                      <td className="usage-num dim">{tokens(each.totals)} tokens</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          )}
          {report.tool_calls.length > 0 && (
            <section className="usage-section">
              <h3 className="rules-heading">Costliest tool results</h3>
              <p className="dim">What each call&apos;s result cost in the requests that carried it after the call (an estimate).</p>
              <table className="usage-table" data-testid="usage-tool-calls">
                <tbody>
                  {report.tool_calls.map((call) => (
                    <tr key={`${call.session_id}:${call.tool_use_id}`} data-testid="usage-tool-call">
                      <td className="usage-key" title={call.tool_use_id}>
                        {call.name || 'unknown tool'}
                      </td>
                      <td className="usage-num">{formatCost(call.cost_usd)}</td>
                      <td className="usage-num dim">
                        {formatTokens(call.result_tokens)} tokens × {requests(call.requests)}
                      </td>
                      <td className="usage-num dim">
                        {formatTokens(call.cache_read_tokens)} cache read · {formatTokens(call.cache_write_tokens)} cache write · {formatTokens(call.fresh_tokens)} fresh
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          )}
        </div>
      )}
    </Modal>
  );
}

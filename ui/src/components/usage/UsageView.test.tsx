// The usage view: opened from the status bar's cost, it loads the report of the chosen period (UTC days), draws a bar
// per day and lists the folders, models, costliest sessions and tool results, and the budgets; the status bar shows
// the session's last budget warning.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { BudgetStatus, UsageReport, UsageTotals } from '../../generated/protocol';
import { installFakeIpc } from '../../test/fakeIpc';
import { App } from '../app/App';
import { UsageView } from './UsageView';

function totals(cost: number, requests = 1): UsageTotals {
  return { requests, input_tokens: 1000, output_tokens: 100, cache_creation_input_tokens: 0, cache_read_input_tokens: 5000, cost_usd: cost };
}

const daily: BudgetStatus = { period: 'day', limit_usd: 5, spent_usd: 4.5, warn_percent: 80, on_limit: 'stop' };

function report(since: string | null): UsageReport {
  return {
    since,
    folder: null,
    totals: totals(3.5, 7),
    by_day: [
      { key: '2026-12-01', totals: totals(1) },
      { key: '2026-12-03', totals: totals(2.5) },
    ],
    by_folder: [{ key: '/home/me/projects/demo', totals: totals(3.5, 7) }],
    by_model: [
      { key: 'claude-sonnet-4-5', totals: totals(3) },
      { key: 'claude-haiku-4-5', totals: totals(0.5) },
    ],
    sessions: [{ session_id: 's1', title: 'Fix the parser', folder: '/home/me/projects/demo', totals: totals(3.5, 7) }],
    tool_calls: [
      {
        session_id: 's1',
        tool_use_id: 'toolu_1',
        name: 'Read',
        result_tokens: 12000,
        requests: 9,
        cache_read_tokens: 96000,
        cache_write_tokens: 12000,
        fresh_tokens: 0,
        cost_usd: 0.0738,
      },
    ],
    budgets: [daily],
  };
}

describe('UsageView', () => {
  it('loads the chosen period and shows the chart, the tables and the budgets', async () => {
    const asked: (string | null)[] = [];
    const load = (since: string | null) => {
      asked.push(since);
      return Promise.resolve(report(since));
    };
    render(<UsageView load={load} onClose={() => {}} now={() => new Date('2026-12-05T23:59:00Z')} />);
    const view = await screen.findByTestId('usage-view');
    await waitFor(() => expect(within(view).getAllByTestId('usage-bar')).toHaveLength(2));
    expect(asked).toEqual(['2026-11-06']);
    const bars = within(view).getAllByTestId('usage-bar');
    expect(bars.map((bar) => bar.getAttribute('data-day'))).toEqual(['2026-12-01', '2026-12-03']);
    // The costliest day is the full height.
    expect(Number(bars[1]?.getAttribute('height'))).toBeCloseTo(120);
    expect(Number(bars[0]?.getAttribute('height'))).toBeCloseTo(48);
    expect(within(view).getByTestId('usage-total')).toHaveTextContent('$3.50');
    expect(within(view).getByTestId('usage-by-model')).toHaveTextContent('claude-haiku-4-5');
    expect(within(view).getByTestId('usage-sessions')).toHaveTextContent('Fix the parser');
    expect(within(view).getByTestId('usage-tool-calls')).toHaveTextContent('Read$0.07');
    expect(within(view).getByTestId('usage-tool-calls')).toHaveTextContent('12k tokens × 9 requests');
    expect(within(view).getByTestId('usage-budget')).toHaveAttribute('data-level', 'warn');

    await userEvent.click(within(view).getByTestId('usage-range-7d'));
    await waitFor(() => expect(asked).toEqual(['2026-11-06', '2026-11-29']));
    await userEvent.click(within(view).getByTestId('usage-range-all'));
    await waitFor(() => expect(asked).toEqual(['2026-11-06', '2026-11-29', null]));
  });

  it('says so when the period has no request', async () => {
    const empty = { ...report(null), by_day: [], tool_calls: [], sessions: [], budgets: [] };
    render(<UsageView load={() => Promise.resolve(empty)} onClose={() => {}} />);
    expect(await screen.findByTestId('usage-chart-empty')).toBeInTheDocument();
  });

  it('opens from the status bar, which shows the budgets, warns before the limit and says when a turn was stopped', async () => {
    let spent = 3.2;
    const ipc = installFakeIpc({
      usage_report: (args) => report((args.since as string | null) ?? null),
      budget_status: () => [{ ...daily, spent_usd: spent }],
    });
    render(<App />);
    await userEvent.click(await screen.findByTestId('open-folder-button'));
    const meter = await screen.findByTestId('budget-meter');
    expect(meter).toHaveAttribute('data-level', 'ok');
    expect(meter).toHaveTextContent('Today $3.20 / $5.00');

    // The warning event shows at once, before the backend counts again.
    spent = 4.5;
    ipc.push({ type: 'turn_started', prompt: 'spend' }, { type: 'budget_warning', status: daily, reached: false });
    await waitFor(() => expect(screen.getByTestId('budget-meter')).toHaveAttribute('data-level', 'warn'));
    expect(screen.getByTestId('budget-meter')).toHaveTextContent('Today $4.50 / $5.00');
    expect(screen.queryByTestId('budget-stopped')).toBeNull();

    spent = 5.2;
    ipc.push(
      { type: 'budget_warning', status: { ...daily, spent_usd: 5.2 }, reached: true },
      { type: 'notice', message: 'The daily budget of $5.00 is reached ($5.20 spent)' },
      { type: 'turn_ended', stop_reason: 'budget_reached' },
    );
    await waitFor(() => expect(screen.getByTestId('budget-meter')).toHaveAttribute('data-level', 'reached'));
    expect(screen.getByTestId('budget-meter')).toHaveTextContent('Today $5.20 / $5.00 reached');
    expect(screen.getByTestId('budget-stopped')).toHaveTextContent('Turn stopped: the daily budget of $5.00 is reached');

    await userEvent.click(screen.getByTestId('budget-stopped'));
    const view = await screen.findByTestId('usage-view');
    await waitFor(() => expect(within(view).getAllByTestId('usage-bar')).toHaveLength(2));
    expect(ipc.argsOf('usage_report')[0]).toMatchObject({ folder: null });
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('usage-view')).toBeNull());
    await userEvent.click(screen.getByTestId('cost'));
    expect(await screen.findByTestId('usage-view')).toBeInTheDocument();
  });

  it('shows no budget when none is set', async () => {
    installFakeIpc();
    render(<App />);
    await userEvent.click(await screen.findByTestId('open-folder-button'));
    await screen.findByTestId('cost');
    expect(screen.queryByTestId('budget-meter')).toBeNull();
  });
});

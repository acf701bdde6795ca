// The settings dialog: opened from the status bar's model name, it shows where the key comes from
// (never the key), saves the connection and looks, applies the theme and font size to the window and
// takes each open session's new info (its model); the budget is saved with them and the status bar counts it again;
// a bad budget is named and not sent; a refused save keeps the dialog open with the error.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { AppSettingsUpdate, BudgetLimits, BudgetStatus } from '../../generated/protocol';
import { appSettings, installFakeIpc, sessionInfo } from '../../test/fakeIpc';
import { resolveScheme } from '../../settings/looks';
import { App } from '../app/App';

describe('SettingsDialog', () => {
  it('saves the connection and looks and the session takes the new model', async () => {
    const saved: AppSettingsUpdate[] = [];
    const ipc = installFakeIpc({
      app_settings: () => appSettings({ key_source: 'keyring', overridden_by_env: ['ANTHROPIC_MODEL'] }),
      save_app_settings: (args) => {
        const update = args.update as AppSettingsUpdate;
        saved.push(update);
        return {
          settings: appSettings({ provider: update.provider, model: update.model, theme: update.theme, font_size: update.font_size, key_source: 'keyring' }),
          sessions: [sessionInfo({ model: update.model })],
        };
      },
    });
    render(<App />);
    await userEvent.click(await screen.findByTestId('open-folder-button'));
    await userEvent.click(await screen.findByTestId('model-name'));
    const dialog = await screen.findByTestId('settings-dialog');
    await waitFor(() => expect(within(dialog).getByTestId('settings-key-source')).toHaveTextContent('desktop keyring'));
    expect(within(dialog).getByTestId('settings-env')).toHaveTextContent('ANTHROPIC_MODEL');
    expect(within(dialog).getByTestId('settings-api-key')).toHaveValue('');

    await userEvent.selectOptions(within(dialog).getByTestId('settings-provider'), 'openai');
    await userEvent.type(within(dialog).getByTestId('settings-model'), 'qwen3');
    await userEvent.type(within(dialog).getByTestId('settings-api-key'), 'sk-local');
    await userEvent.selectOptions(within(dialog).getByTestId('settings-theme'), 'light');
    const size = within(dialog).getByTestId('settings-font-size');
    await userEvent.clear(size);
    await userEvent.type(size, '16');
    const notifications = within(dialog).getByTestId('settings-notifications');
    expect(notifications).toBeChecked();
    await userEvent.click(notifications);
    await userEvent.click(within(dialog).getByTestId('settings-save'));

    await waitFor(() => expect(screen.queryByTestId('settings-dialog')).toBeNull());
    expect(saved).toEqual([
      {
        provider: 'openai',
        base_url: '',
        model: 'qwen3',
        api_key: 'sk-local',
        theme: 'light',
        font_size: 16,
        notifications: false,
        budget: { daily_usd: null, monthly_usd: null, warn_percent: 80, on_limit: 'warn' },
      },
    ]);
    expect(screen.getByTestId('model-name')).toHaveTextContent('qwen3');
    expect(document.documentElement.dataset.scheme).toBe('light');
    expect(document.documentElement.style.getPropertyValue('zoom')).toBe(String(16 / 14));
    expect(ipc.argsOf('save_app_settings')).toHaveLength(1);
  });

  it('shows the URL the environment sets and offers no saved key to keep when nothing is saved', async () => {
    installFakeIpc({
      app_settings: () =>
        appSettings({
          key_source: 'environment',
          key_saved: false,
          overridden_by_env: ['ANTHROPIC_BASE_URL', 'ANTHROPIC_API_KEY'],
          base_url_in_use: 'http://127.0.0.1:8080',
        }),
    });
    render(<App />);
    await userEvent.click(await screen.findByTestId('open-folder-button'));
    await userEvent.click(await screen.findByTestId('model-name'));
    const dialog = await screen.findByTestId('settings-dialog');
    const url = await within(dialog).findByTestId('settings-base-url');
    await waitFor(() => expect(url).toHaveAttribute('placeholder', 'http://127.0.0.1:8080 (from ANTHROPIC_BASE_URL)'));
    expect(within(dialog).getByTestId('settings-api-key')).toHaveAttribute('placeholder', 'paste a key to save it');
  });

  it('keeps the dialog open with the error when the save is refused, and removing a key sends an empty one', async () => {
    const updates: AppSettingsUpdate[] = [];
    installFakeIpc({
      app_settings: () => appSettings({ key_source: 'credentials_file' }),
      save_app_settings: (args) => {
        updates.push(args.update as AppSettingsUpdate);
        throw { code: 'settings', message: 'the base URL "ftp://x" is not an http:// or https:// URL' };
      },
    });
    render(<App />);
    await userEvent.click(await screen.findByTestId('welcome-settings'));
    const dialog = await screen.findByTestId('settings-dialog');
    await userEvent.click(await within(dialog).findByTestId('settings-remove-key'));
    await userEvent.click(within(dialog).getByTestId('settings-save'));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('is not an http:// or https:// URL');
    expect(updates[0]?.api_key).toBe('');
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('settings-dialog')).toBeNull());
  });

  it('saves a budget, names a bad value without saving, and the status bar shows the new budget', async () => {
    const saved: AppSettingsUpdate[] = [];
    let limits: BudgetLimits = { daily_usd: null, monthly_usd: 100, warn_percent: 80, on_limit: 'warn' };
    const statuses = (): BudgetStatus[] => [
      ...(limits.daily_usd === null ? [] : [{ period: 'day' as const, limit_usd: limits.daily_usd, spent_usd: 4.5, warn_percent: limits.warn_percent, on_limit: limits.on_limit }]),
      ...(limits.monthly_usd === null ? [] : [{ period: 'month' as const, limit_usd: limits.monthly_usd, spent_usd: 41.5, warn_percent: limits.warn_percent, on_limit: limits.on_limit }]),
    ];
    const ipc = installFakeIpc({
      app_settings: () => appSettings({ budget: limits }),
      budget_status: () => statuses(),
      save_app_settings: (args) => {
        const update = args.update as AppSettingsUpdate;
        saved.push(update);
        limits = update.budget ?? limits;
        return { settings: appSettings({ budget: limits }), sessions: [sessionInfo()] };
      },
    });
    render(<App />);
    await userEvent.click(await screen.findByTestId('open-folder-button'));
    const monthly = await screen.findByTestId('budget-meter');
    expect(monthly).toHaveAttribute('data-period', 'month');
    expect(monthly).toHaveAttribute('data-level', 'ok');
    expect(monthly).toHaveTextContent('This month $41.50 / $100.00');

    await userEvent.click(screen.getByTestId('model-name'));
    const dialog = await screen.findByTestId('settings-dialog');
    const daily = await within(dialog).findByTestId('settings-budget-daily');
    expect(within(dialog).getByTestId('settings-budget-monthly')).toHaveValue('100');
    await userEvent.type(daily, 'five');
    await userEvent.click(within(dialog).getByTestId('settings-save'));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The daily budget "five" is not a positive amount of dollars');
    expect(daily).toHaveAttribute('aria-invalid', 'true');
    expect(saved).toEqual([]);

    await userEvent.clear(daily);
    await userEvent.type(daily, '5');
    await userEvent.selectOptions(within(dialog).getByTestId('settings-budget-on-limit'), 'stop');
    await userEvent.click(within(dialog).getByTestId('settings-save'));
    await waitFor(() => expect(screen.queryByTestId('settings-dialog')).toBeNull());
    expect(saved.map((update) => update.budget)).toEqual([{ daily_usd: 5, monthly_usd: 100, warn_percent: 80, on_limit: 'stop' }]);
    // Counted again after the save: $4.50 of $5.00 is past the 80% warning.
    await waitFor(() => expect(screen.getAllByTestId('budget-meter')).toHaveLength(2));
    const [day] = screen.getAllByTestId('budget-meter');
    expect(day).toHaveAttribute('data-level', 'warn');
    expect(day).toHaveTextContent('Today $4.50 / $5.00');
    expect(ipc.argsOf('budget_status').length).toBeGreaterThanOrEqual(2);
  });

  it('resolves the system theme from the desktop preference', () => {
    expect(resolveScheme('system', true)).toBe('light');
    expect(resolveScheme('system', false)).toBe('dark');
    expect(resolveScheme('dark', true)).toBe('dark');
    expect(resolveScheme('light', false)).toBe('light');
  });
});

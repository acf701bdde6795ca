// The plugins panel: each installed plugin with its version, marketplace, what it brings, the file that decides and
// its problems, and the switch that turns one on or off through `set_plugin_enabled`.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { PluginListing } from '../../generated/protocol';
import { FOLDER, installFakeIpc } from '../../test/fakeIpc';
import { App } from '../app/App';
import { partsText } from '../../state/plugins';

const none = { skills: 0, commands: 0, agents: 0, hooks: 0, mcp_servers: 0, lsp_servers: 0 };
const kit: PluginListing = {
  id: 'review-kit@tools',
  name: 'review-kit',
  marketplace: 'tools',
  version: '1.2.0',
  description: 'Review checklists',
  author: 'Tools team',
  enabled: true,
  decided_by: `${FOLDER}/.claude/settings.json`,
  switchable: true,
  loaded: true,
  waits_for_trust: true,
  counts: { ...none, skills: 2, commands: 1, hooks: 1, mcp_servers: 1 },
  problems: [],
};
const broken: PluginListing = {
  ...kit,
  id: 'broken@tools',
  name: 'broken',
  version: null,
  description: null,
  enabled: false,
  decided_by: null,
  loaded: false,
  waits_for_trust: false,
  counts: none,
  problems: ['its manifest cannot be used: the manifest has no `name`; it is not loaded'],
};
const managed: PluginListing = { ...kit, id: 'policy@tools', name: 'policy', decided_by: '/etc/claude-code/managed-settings.json', switchable: false, waits_for_trust: false };

describe('partsText', () => {
  it.each([
    [none, 'nothing'],
    [{ ...none, skills: 1 }, '1 skill'],
    [{ ...none, skills: 2, commands: 1, agents: 3, hooks: 1, mcp_servers: 2, lsp_servers: 1 }, '2 skills · 1 command · 3 agents · 1 hook · 2 MCP servers · 1 language server'],
  ])('names %o as %s', (counts, text) => {
    expect(partsText(counts)).toBe(text);
  });
});

describe('PluginsPanel', () => {
  it('lists the plugins and turns one off with its switch', async () => {
    const ipc = installFakeIpc({
      plugins_view: () => [broken, managed, kit],
      set_plugin_enabled: (args) => [broken, managed, { ...kit, enabled: args.enabled === true, decided_by: `${FOLDER}/.claude/settings.local.json`, waits_for_trust: false }],
    });
    render(<App />);
    await userEvent.click(await screen.findByTestId('open-folder-button'));
    await userEvent.click(await screen.findByTestId('plugins-button'));
    const panel = await screen.findByTestId('plugins-panel');
    await waitFor(() => expect(within(panel).getAllByTestId('plugin-item')).toHaveLength(3));
    const item = (id: string) => within(panel).getAllByTestId<HTMLElement>('plugin-item').find((el) => el.dataset.id === id)!;

    const on = item('review-kit@tools');
    expect(on).toHaveTextContent('review-kit');
    expect(on).toHaveTextContent('1.2.0');
    expect(on).toHaveTextContent('from tools');
    expect(within(on).getByTestId('plugin-parts')).toHaveTextContent('Brings 2 skills · 1 command · 1 hook · 1 MCP server');
    expect(within(on).getByTestId('plugin-decided')).toHaveTextContent('On in .claude/settings.json');
    expect(within(on).getByTestId('plugin-trust')).toBeInTheDocument();
    expect(within(item('broken@tools')).getByTestId('plugin-problems')).toHaveTextContent('manifest');
    expect(within(item('broken@tools')).getByTestId('plugin-decided')).toHaveTextContent('Off: no settings file turns it on');
    expect(within(item('policy@tools')).getByTestId('plugin-switch')).toBeDisabled();

    await userEvent.click(within(on).getByTestId('plugin-switch'));
    expect(ipc.argsOf('set_plugin_enabled')).toEqual([{ sessionId: 'session-1', id: 'review-kit@tools', enabled: false }]);
    await waitFor(() => expect(item('review-kit@tools')).toHaveAttribute('data-enabled', 'false'));
    expect(within(item('review-kit@tools')).getByTestId('plugin-decided')).toHaveTextContent('Off in .claude/settings.local.json');
    expect(within(item('review-kit@tools')).getByTestId('plugin-switch')).not.toBeChecked();
  });

  it('shows why a switch was not saved and keeps the list', async () => {
    installFakeIpc({
      plugins_view: () => [kit],
      set_plugin_enabled: () => {
        throw { code: 'settings', message: 'the plugin was not switched: .claude/settings.local.json is not a JSON object' };
      },
    });
    render(<App />);
    await userEvent.click(await screen.findByTestId('open-folder-button'));
    await userEvent.click(await screen.findByTestId('plugins-button'));
    const panel = await screen.findByTestId('plugins-panel');
    await userEvent.click(await within(panel).findByTestId('plugin-switch'));
    expect(await within(panel).findByText(/not a JSON object/)).toBeInTheDocument();
    expect(within(panel).getByTestId('plugin-item')).toHaveAttribute('data-enabled', 'true');
  });
});

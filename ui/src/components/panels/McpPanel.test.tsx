// The MCP panel: servers from the engine and its live events, approving a project server,
// reconnecting one, turning a tool off and on, and a failed server's error with its stderr.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { McpServerStatus } from '../../generated/protocol';
import { installFakeIpc } from '../../test/fakeIpc';
import { App } from '../app/App';

const db: McpServerStatus = {
  name: 'db',
  transport: 'stdio',
  target: 'npx db-server',
  source: '/p/.mcp.json',
  state: { state: 'needs_approval' },
  tools: [],
  disabled_tools: [],
  prompts: [],
  resources: [],
};
const docs: McpServerStatus = {
  name: 'docs',
  transport: 'http',
  target: 'https://docs.example/mcp',
  source: '~/.claude/settings.json',
  state: { state: 'failed', error: 'connection refused', stderr_tail: 'listen: port in use' },
  tools: [],
  disabled_tools: [],
  prompts: [],
  resources: [],
};

describe('McpPanel', () => {
  it('lists the servers, approves a project server and follows its events', async () => {
    const ipc = installFakeIpc({ mcp_servers: () => [db, docs] });
    render(<App />);
    await userEvent.click(await screen.findByTestId('open-folder-button'));
    await screen.findByTestId('prompt-input');
    ipc.push({ type: 'mcp_server_changed', server: db }, { type: 'mcp_server_changed', server: docs });
    expect(screen.getByTestId('mcp-button')).toHaveTextContent('MCP 0/2');
    await userEvent.click(screen.getByTestId('mcp-button'));
    const panel = await screen.findByTestId('mcp-panel');
    await waitFor(() => expect(within(panel).getAllByTestId('mcp-server')).toHaveLength(2));
    const failed = within(panel).getAllByTestId('mcp-server')[1] as HTMLElement;
    expect(within(failed).getByTestId('mcp-error')).toHaveTextContent('connection refused');
    expect(within(failed).getByTestId('mcp-error')).toHaveTextContent('listen: port in use');

    await userEvent.click(within(panel).getByTestId('mcp-approve'));
    expect(ipc.argsOf('approve_mcp_server')).toEqual([{ sessionId: 'session-1', name: 'db', approved: true }]);
    ipc.push({ type: 'mcp_server_changed', server: { ...db, state: { state: 'ready' }, tools: ['mcp__db__query'] } });
    const ready = within(panel).getAllByTestId('mcp-server')[0] as HTMLElement;
    expect(ready).toHaveAttribute('data-state', 'ready');
    expect(ready).toHaveTextContent('1 tool');
    expect(screen.getByTestId('mcp-button')).toHaveTextContent('MCP 1/2');

    await userEvent.click(within(failed).getByTestId('mcp-reconnect'));
    expect(ipc.argsOf('reconnect_mcp_server')).toEqual([{ sessionId: 'session-1', name: 'docs' }]);
  });

  it('turns a tool off and on with its checkbox', async () => {
    const ready: McpServerStatus = { ...db, state: { state: 'ready' }, tools: ['mcp__db__query', 'mcp__db__drop'] };
    const ipc = installFakeIpc({ mcp_servers: () => [ready] });
    render(<App />);
    await userEvent.click(await screen.findByTestId('open-folder-button'));
    await screen.findByTestId('prompt-input');
    await userEvent.click(screen.getByTestId('mcp-button'));
    const panel = await screen.findByTestId('mcp-panel');
    await userEvent.click(await within(panel).findByText('2 tools'));
    const drop = within(panel)
      .getAllByTestId('mcp-tool-toggle')
      .find((box) => box.getAttribute('data-tool') === 'mcp__db__drop') as HTMLInputElement;
    expect(drop).toBeChecked();
    await userEvent.click(drop);
    expect(ipc.argsOf('set_mcp_tool_enabled')).toEqual([{ sessionId: 'session-1', tool: 'mcp__db__drop', enabled: false }]);
    ipc.push({ type: 'mcp_server_changed', server: { ...ready, disabled_tools: ['mcp__db__drop'] } });
    await waitFor(() => expect(drop).not.toBeChecked());
    expect(panel).toHaveTextContent('2 tools (1 off)');
    await userEvent.click(drop);
    expect(ipc.argsOf('set_mcp_tool_enabled')).toEqual([
      { sessionId: 'session-1', tool: 'mcp__db__drop', enabled: false },
      { sessionId: 'session-1', tool: 'mcp__db__drop', enabled: true },
    ]);
  });

  it('says how to add servers when there are none', async () => {
    installFakeIpc({ mcp_servers: () => [] });
    render(<App />);
    await userEvent.click(await screen.findByTestId('open-folder-button'));
    await userEvent.click(await screen.findByTestId('mcp-button'));
    expect(await screen.findByTestId('mcp-none')).toHaveTextContent('.mcp.json');
  });
  it('signs in to a remote server and lists its prompts and resources once ready', async () => {
    const guarded: McpServerStatus = { ...docs, name: 'guarded', state: { state: 'needs_sign_in', authorization_url: null, error: null } };
    const url = 'https://auth.example/authorize?client_id=tandem';
    const ipc = installFakeIpc({
      mcp_servers: () => [guarded],
      sign_in_mcp_server: () => ({ authorization_url: url, open_error: 'xdg-open is missing' }),
    });
    render(<App />);
    await userEvent.click(await screen.findByTestId('open-folder-button'));
    await screen.findByTestId('prompt-input');
    await userEvent.click(screen.getByTestId('mcp-button'));
    const panel = await screen.findByTestId('mcp-panel');
    const server = (await within(panel).findAllByTestId('mcp-server'))[0] as HTMLElement;
    expect(server).toHaveAttribute('data-state', 'needs_sign_in');
    expect(server).toHaveTextContent('Needs sign-in');
    await userEvent.click(within(server).getByTestId('mcp-sign-in'));
    expect(ipc.argsOf('sign_in_mcp_server')).toEqual([{ sessionId: 'session-1', name: 'guarded' }]);
    ipc.push({ type: 'mcp_server_changed', server: { ...guarded, state: { state: 'needs_sign_in', authorization_url: url, error: null } } });
    await waitFor(() => expect(within(panel).getByTestId('mcp-sign-in-url')).toHaveTextContent(url));
    expect(within(panel).getByTestId('mcp-sign-in-state')).toHaveTextContent('xdg-open is missing');

    ipc.push({
      type: 'mcp_server_changed',
      server: {
        ...guarded,
        state: { state: 'ready' },
        tools: ['mcp__guarded__echo'],
        prompts: ['greet'],
        resources: [{ uri: 'test://readme', name: 'Readme' }],
      },
    });
    await waitFor(() => expect(within(panel).getByTestId('mcp-prompts')).toHaveTextContent('1 prompt'));
    expect(within(panel).getByTestId('mcp-prompts')).toHaveTextContent('greet');
    expect(within(panel).getByTestId('mcp-resources')).toHaveTextContent('1 resource');
    expect(within(panel).getByTestId('mcp-resources')).toHaveTextContent('test://readme');
    expect(within(panel).queryByTestId('mcp-sign-in')).toBeNull();
  });
});

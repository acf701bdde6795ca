// Tests of shells in the window: a running shell call's "Move to background" button and Ctrl+B ask the engine
// to move commands to the background; the background shells list shows each shell's state and why it is there,
// its output on demand (read again while it runs), and stops a running one.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { BackgroundShell, SessionEvent } from '../../generated/protocol';
import { hints } from '../../test/events';
import { installFakeIpc } from '../../test/fakeIpc';
import { App } from '../app/App';

const running = (id: string): SessionEvent[] => [
  { type: 'tool_call_started', tool_use_id: id, name: 'Bash' },
  { type: 'tool_call_input', tool_use_id: id, name: 'Bash', input: { command: 'npm run dev' }, hints: hints('shell', '$ npm run dev') },
  { type: 'tool_call_status_changed', tool_use_id: id, status: 'executing' },
  { type: 'tool_call_progress', tool_use_id: id, text: 'listening on :5173\r\n' },
];

const shell = (overrides: Partial<BackgroundShell>): SessionEvent => ({
  type: 'background_shell_changed',
  shell: {
    task_id: 'shell_1',
    tool_use_id: 'b1',
    command: 'npm run dev',
    description: null,
    status: 'running',
    exit_code: null,
    reason: 'by_person',
    agent_id: null,
    ...overrides,
  },
});

async function openSession(handlers: Record<string, (args: Record<string, unknown>) => unknown> = {}) {
  const ipc = installFakeIpc({ send_to_background: () => 1, stop_background_shell: () => true, ...handlers });
  render(<App />);
  await userEvent.click(await screen.findByTestId('open-folder-button'));
  await screen.findByTestId('prompt-input');
  return ipc;
}

describe('moving a running command to the background', () => {
  it('a running shell call has a button that moves just it; a finished one has none', async () => {
    const ipc = await openSession();
    ipc.push({ type: 'turn_started', prompt: 'serve' }, ...running('b1'));
    await userEvent.click(screen.getByTestId('tool-background'));
    expect(ipc.argsOf('send_to_background')).toEqual([{ sessionId: 'session-1', toolUseId: 'b1' }]);
    expect(ipc.argsOf('interrupt')).toHaveLength(0);
    ipc.push(
      { type: 'tool_call_result', tool_use_id: 'b1', outcome: 'success', content: 'The user moved the command to the background', detail: null },
      { type: 'tool_call_status_changed', tool_use_id: 'b1', status: 'completed' },
    );
    expect(screen.queryByTestId('tool-background')).not.toBeInTheDocument();
  });

  it('Ctrl+B moves every running command while a turn runs, and does nothing otherwise', async () => {
    const ipc = await openSession();
    await userEvent.keyboard('{Control>}b{/Control}');
    expect(ipc.argsOf('send_to_background')).toHaveLength(0);
    ipc.push({ type: 'turn_started', prompt: 'serve' }, ...running('b1'), ...running('b2'));
    await userEvent.keyboard('{Control>}b{/Control}');
    expect(ipc.argsOf('send_to_background')).toEqual([{ sessionId: 'session-1', toolUseId: null }]);
    expect(ipc.argsOf('interrupt')).toHaveLength(0);
  });
});

describe('the background shells list', () => {
  it('lists each shell with its state and why it runs there, and stops a running one by its task id', async () => {
    const ipc = await openSession();
    ipc.push(
      { type: 'turn_started', prompt: 'serve' },
      shell({ task_id: 'shell_1', description: 'Start the dev server' }),
      shell({ task_id: 'shell_2', tool_use_id: 'b2', command: 'cargo watch', reason: 'timeout', agent_id: 'agent-7' }),
      shell({ task_id: 'shell_3', tool_use_id: 'b3', command: 'make test', reason: 'requested' }),
      shell({ task_id: 'shell_3', tool_use_id: 'b3', command: 'make test', reason: 'requested', status: 'exited', exit_code: 2 }),
    );
    const list = screen.getByTestId('background-shells');
    const rows = () => within(list).getAllByTestId('background-shell');
    expect(rows().map((row) => row.dataset.status)).toEqual(['running', 'running', 'exited']);
    expect(list).toHaveTextContent('2 running');
    const status = (index: number) => within(rows()[index] as HTMLElement).getByTestId('background-shell-status');
    expect(rows()[0]).toHaveTextContent('Start the dev server');
    expect(status(0)).toHaveTextContent('running · moved here by you');
    expect(status(1)).toHaveTextContent('running · moved here at its timeout · sub-agent');
    expect(status(2)).toHaveTextContent('exited 2');
    expect(within(rows()[2] as HTMLElement).queryByTestId('background-shell-stop')).not.toBeInTheDocument();

    await userEvent.click(within(rows()[1] as HTMLElement).getByTestId('background-shell-stop'));
    expect(ipc.argsOf('stop_background_shell')).toEqual([{ sessionId: 'session-1', taskId: 'shell_2' }]);
    ipc.push(shell({ task_id: 'shell_2', tool_use_id: 'b2', command: 'cargo watch', reason: 'timeout', agent_id: 'agent-7', status: 'killed' }));
    expect(rows().map((row) => row.dataset.status)).toEqual(['running', 'killed', 'exited']);
    expect(status(1)).toHaveTextContent('stopped');
    expect(list).toHaveTextContent('1 running');
  });

  it('shows a shell’s output on demand and reads it again while it runs', async () => {
    let reads = 0;
    const ipc = await openSession({
      background_shell_output: (args) => {
        reads += 1;
        return args.taskId === 'shell_1' ? (reads === 1 ? 'listening on :5173\r\n' : 'listening on :5173\r\nGET / 200\r\n') : null;
      },
    });
    ipc.push({ type: 'turn_started', prompt: 'serve' }, shell({}));
    const row = within(screen.getByTestId('background-shells')).getByTestId('background-shell');
    await userEvent.click(within(row).getByTestId('background-shell-output'));
    expect(await within(row).findByTestId('shell-output')).toHaveTextContent('listening on :5173');
    expect(ipc.argsOf('background_shell_output')[0]).toEqual({ sessionId: 'session-1', taskId: 'shell_1' });
    await waitFor(() => expect(within(row).getByTestId('shell-output')).toHaveTextContent('GET / 200'), { timeout: 10_000 });
    await userEvent.click(within(row).getByTestId('background-shell-output'));
    expect(within(row).queryByTestId('shell-output')).not.toBeInTheDocument();
  });
});

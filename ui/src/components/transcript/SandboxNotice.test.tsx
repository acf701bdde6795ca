// Tests of what the shell sandbox's refusals and a destructive command look like in the window: the notice rows on
// the Bash call with their one-click allowance (through a mocked IPC), and the approval dialog's warnings and
// sed -i previews.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { approvalRequest, hints } from '../../test/events';
import { installFakeIpc, type FakeIpc } from '../../test/fakeIpc';
import { App } from '../app/App';

async function open(handlers: Parameters<typeof installFakeIpc>[0] = {}): Promise<FakeIpc> {
  const ipc = installFakeIpc(handlers);
  render(<App />);
  await userEvent.click(await screen.findByTestId('open-folder-button'));
  await screen.findByTestId('folder-name');
  return ipc;
}

describe('SandboxNotice', () => {
  it('shows each refusal once on its call and allows it in one click', async () => {
    const ipc = await open({ allow_sandbox_violation: (args) => (args.violation as { host: string }).host });
    ipc.push(
      { type: 'turn_started', prompt: 'fetch' },
      {
        type: 'tool_call_input',
        tool_use_id: 't1',
        name: 'Bash',
        input: { command: 'curl https://api.example.com' },
        hints: hints('shell', '$ curl https://api.example.com'),
      },
      { type: 'sandbox_violation', tool_use_id: 't1', violation: { type: 'network', host: 'api.example.com' } },
      { type: 'sandbox_violation', tool_use_id: 't1', violation: { type: 'network', host: 'api.example.com' } },
      { type: 'sandbox_violation', tool_use_id: 't1', violation: { type: 'write', path: '/usr/x' } },
    );
    const call = await screen.findByTestId('tool-call');
    const rows = within(call).getAllByTestId('sandbox-notice');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('The sandbox refused a connection to api.example.com');
    expect(rows[1]).toHaveTextContent('The sandbox refused a write to /usr/x');
    const allow = within(rows[0]!).getByTestId('sandbox-allow');
    expect(allow).toHaveTextContent('Allow api.example.com');
    await userEvent.click(allow);
    await waitFor(() => expect(within(rows[0]!).getByTestId('sandbox-allowed')).toHaveTextContent('Allowed api.example.com'));
    expect(ipc.argsOf('allow_sandbox_violation')).toEqual([
      { sessionId: 'session-1', violation: { type: 'network', host: 'api.example.com' } },
    ]);
  });
});

describe('ApprovalDialog warnings and previews', () => {
  it('shows what a command would destroy and the diff of a sed -i', async () => {
    const ipc = await open();
    ipc.push(
      { type: 'turn_started', prompt: 'clean' },
      {
        type: 'approval_requested',
        request: {
          ...approvalRequest('r1', 't1'),
          input: { command: "rm -rf build && sed -i 's/a/b/' x.txt" },
          warnings: ['`rm` deletes build and everything inside, without asking; it does not go to the trash'],
          previews: [{ path: '/p/x.txt', old_text: 'a\n', new_text: 'b\n', is_new_file: false }],
        },
      },
    );
    const dialog = await screen.findByTestId('approval-dialog');
    expect(within(dialog).getByTestId('approval-warnings')).toHaveTextContent('deletes build and everything inside');
    const previews = within(dialog).getByTestId('approval-previews');
    expect(within(previews).getByTestId('tool-diff')).toHaveTextContent('x.txt');
  });

  it('shows neither for a request without them', async () => {
    const ipc = await open();
    ipc.push({ type: 'turn_started', prompt: 'x' }, { type: 'approval_requested', request: approvalRequest('r1', 't1') });
    await screen.findByTestId('approval-dialog');
    expect(screen.queryByTestId('approval-warnings')).not.toBeInTheDocument();
    expect(screen.queryByTestId('approval-previews')).not.toBeInTheDocument();
  });
});

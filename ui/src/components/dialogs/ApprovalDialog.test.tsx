// Tests of the approval dialog inside the session window, answering through a mocked IPC:
// what it shows, each answer, the keyboard, the message sent with No, and queued requests.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../generated/protocol';
import { approvalRequest } from '../../test/events';
import { FOLDER, installFakeIpc, type FakeIpc } from '../../test/fakeIpc';
import { App } from '../app/App';

async function openWith(...requests: ApprovalRequest[]): Promise<FakeIpc> {
  const ipc = installFakeIpc();
  render(<App />);
  await userEvent.click(await screen.findByTestId('open-folder-button'));
  await screen.findByTestId('folder-name');
  ipc.push(
    { type: 'turn_started', prompt: 'run the tests' },
    ...requests.map((request) => ({ type: 'approval_requested' as const, request })),
  );
  return ipc;
}

const answers = (ipc: FakeIpc) => ipc.argsOf('answer_approval');

describe('ApprovalDialog', () => {
  it('shows the tool, title, reason, command and suggested rule', async () => {
    await openWith(approvalRequest('r1', 't1'));
    const dialog = screen.getByRole('dialog');
    expect(dialog).toHaveAttribute('data-testid', 'approval-dialog');
    expect(within(dialog).getByTestId('approval-tool-name')).toHaveTextContent('Bash');
    expect(within(dialog).getByTestId('approval-title')).toHaveTextContent('Run npm run test');
    expect(within(dialog).getByTestId('approval-reason')).toHaveTextContent('No rule allows Bash(npm run test)');
    expect(within(dialog).getByTestId('approval-input')).toHaveTextContent('$ npm run test');
    expect(within(dialog).getByTestId('approval-allow-always')).toHaveTextContent(
      "Yes, and don't ask again for Bash(npm run test *) (saved to .claude/settings.local.json)",
    );
  });

  it('names the sub-agent that asks, and nobody for the session\'s own agent', async () => {
    const ipc = await openWith(
      {
        ...approvalRequest('r1', 't1'),
        sub_agent: { agent_type: 'general-purpose', description: 'Write the notes', parent_tool_use_id: 'a1', agent_id: 'x1' },
      },
      approvalRequest('r2', 't2'),
    );
    expect(screen.getByTestId('approval-asked-by')).toHaveTextContent('Asked by sub-agent general-purpose: Write the notes');
    await userEvent.click(screen.getByTestId('approval-allow'));
    await waitFor(() => expect(screen.getByRole('dialog')).toHaveAttribute('data-request-id', 'r2'));
    expect(screen.queryByTestId('approval-asked-by')).not.toBeInTheDocument();
    expect(answers(ipc)).toHaveLength(1);
  });

  it('shows other inputs as pretty JSON and hides "don\'t ask again" without a suggestion', async () => {
    await openWith({ ...approvalRequest('r1', 't1', false), tool_name: 'Write', kind: 'write', input: { file_path: 'a.txt' } });
    expect(screen.getByTestId('approval-input').textContent).toBe('{\n  "file_path": "a.txt"\n}');
    expect(screen.queryByTestId('approval-allow-always')).not.toBeInTheDocument();
  });

  it('shows a command for shell work whatever the tool is called, and nothing for other work', async () => {
    await openWith(
      { ...approvalRequest('r1', 't1'), tool_name: 'RunInSandbox' },
      { ...approvalRequest('r2', 't2'), kind: 'other' },
    );
    expect(screen.getByTestId('approval-input')).toHaveTextContent('$ npm run test');
    await userEvent.click(screen.getByTestId('approval-allow'));
    await waitFor(() => expect(screen.getByRole('dialog')).toHaveAttribute('data-request-id', 'r2'));
    expect(screen.getByTestId('approval-input').textContent).toContain('"command": "npm run test"');
  });

  it('names what decided to ask: a rule with its file relative to the folder', async () => {
    await openWith({
      ...approvalRequest('r1', 't1'),
      decided_by: { type: 'rule', rule: 'Bash(rm *)', behavior: 'ask', scope: 'projectSettings', file: `${FOLDER}/.claude/settings.json` },
    });
    const source = screen.getByTestId('approval-source');
    expect(source).toHaveAttribute('data-source', 'rule');
    expect(source).toHaveTextContent('Asked by Rule Bash(rm *) in .claude/settings.json');
  });

  it('names the mode, and shows no source line for a request stored without one', async () => {
    await openWith(approvalRequest('r1', 't1'), { ...approvalRequest('r2', 't2'), decided_by: null });
    expect(screen.getByTestId('approval-source')).toHaveTextContent('Asked by Default mode');
    await userEvent.click(screen.getByTestId('approval-allow'));
    await waitFor(() => expect(screen.getByRole('dialog')).toHaveAttribute('data-request-id', 'r2'));
    expect(screen.queryByTestId('approval-source')).not.toBeInTheDocument();
  });

  it.each([
    ['approval-allow', 'allow'],
    ['approval-allow-always', 'allow_always'],
    ['approval-deny', 'deny'],
  ] as const)('%s answers %s', async (testId, choice) => {
    const ipc = await openWith(approvalRequest('r1', 't1'));
    await userEvent.click(screen.getByTestId(testId));
    expect(answers(ipc)).toEqual([{ answer: { request_id: 'r1', choice, message: null } }]);
    await waitFor(() => expect(screen.queryByTestId('approval-dialog')).not.toBeInTheDocument());
  });

  it('sends the message with No', async () => {
    const ipc = await openWith(approvalRequest('r1', 't1'));
    await userEvent.type(screen.getByTestId('approval-message'), 'use pnpm');
    await userEvent.click(screen.getByTestId('approval-deny'));
    expect(answers(ipc)[0]).toMatchObject({ answer: { choice: 'deny', message: 'use pnpm' } });
  });

  it('does not send the message with Yes', async () => {
    const ipc = await openWith(approvalRequest('r1', 't1'));
    await userEvent.type(screen.getByTestId('approval-message'), 'ignored');
    await userEvent.click(screen.getByTestId('approval-allow'));
    expect(answers(ipc)[0]).toMatchObject({ answer: { choice: 'allow', message: null } });
  });

  it('answers Yes on Enter', async () => {
    const ipc = await openWith(approvalRequest('r1', 't1'));
    (document.activeElement as HTMLElement | null)?.blur();
    await userEvent.keyboard('{Enter}');
    expect(answers(ipc)[0]).toMatchObject({ answer: { choice: 'allow' } });
  });

  it('answers No on Esc, without interrupting the turn', async () => {
    const ipc = await openWith(approvalRequest('r1', 't1'));
    await userEvent.keyboard('{Escape}');
    expect(answers(ipc)[0]).toMatchObject({ answer: { choice: 'deny', message: null } });
    expect(ipc.argsOf('interrupt')).toHaveLength(0);
  });

  it.each([
    ['1', true, 'allow'],
    ['2', true, 'allow_always'],
    ['3', true, 'deny'],
    ['2', false, 'deny'],
  ] as const)('key %s (suggestion: %s) answers %s', async (key, suggestion, choice) => {
    const ipc = await openWith(approvalRequest('r1', 't1', suggestion));
    await userEvent.keyboard(key);
    expect(answers(ipc)[0]).toMatchObject({ answer: { choice } });
  });

  it('Enter in the message box sends No with the message', async () => {
    const ipc = await openWith(approvalRequest('r1', 't1'));
    await userEvent.type(screen.getByTestId('approval-message'), 'not now{Enter}');
    expect(answers(ipc)[0]).toMatchObject({ answer: { choice: 'deny', message: 'not now' } });
  });

  it('shows queued requests one after the other', async () => {
    const ipc = await openWith(approvalRequest('r1', 't1'), approvalRequest('r2', 't2'));
    expect(screen.getByTestId('approval-dialog')).toHaveAttribute('data-request-id', 'r1');
    await userEvent.click(screen.getByTestId('approval-allow'));
    await waitFor(() => expect(screen.getByTestId('approval-dialog')).toHaveAttribute('data-request-id', 'r2'));
    ipc.push({ type: 'approval_resolved', request_id: 'r1' });
    await userEvent.click(screen.getByTestId('approval-deny'));
    expect(answers(ipc).map((args) => (args.answer as { request_id: string }).request_id)).toEqual(['r1', 'r2']);
  });

  it('goes away when the engine resolves the request itself', async () => {
    const ipc = await openWith(approvalRequest('r1', 't1'));
    ipc.push({ type: 'approval_resolved', request_id: 'r1' });
    expect(screen.queryByTestId('approval-dialog')).not.toBeInTheDocument();
  });

  it('stays open when the answer cannot be sent', async () => {
    const ipc = installFakeIpc({
      answer_approval: () => {
        throw { code: 'gone', message: 'The request expired' };
      },
    });
    render(<App />);
    await userEvent.click(await screen.findByTestId('open-folder-button'));
    await screen.findByTestId('folder-name');
    ipc.push({ type: 'approval_requested', request: approvalRequest('r1', 't1') });
    await userEvent.click(screen.getByTestId('approval-allow'));
    expect(await screen.findByTestId('error-banner')).toHaveTextContent('The request expired');
    expect(screen.getByTestId('approval-dialog')).toBeInTheDocument();
    expect(screen.getByTestId('approval-allow')).toBeEnabled();
  });
});

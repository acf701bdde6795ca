// "Why am I asked?" in the permission and diff dialogs: the trace's steps (mode, hook with its result, shadowed rule
// with its file, check) and what decided, collapsed at first; the reason as the engine wrote it; and a call the person
// approved no longer drawn in the waiting colour.
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ApprovalRequest, SessionEvent } from '../../generated/protocol';
import { approvalRequest, editRequest, hints } from '../../test/events';
import { installFakeIpc, type FakeIpc } from '../../test/fakeIpc';
import { App } from '../app/App';

async function openWith(request: ApprovalRequest): Promise<FakeIpc> {
  const ipc = installFakeIpc();
  render(<App />);
  await userEvent.click(await screen.findByTestId('open-folder-button'));
  await screen.findByTestId('folder-name');
  ipc.push({ type: 'turn_started', prompt: 'go' }, { type: 'approval_requested', request });
  return ipc;
}

function steps(dialog: HTMLElement): string[] {
  return within(dialog)
    .getAllByTestId('trace-step')
    .map((step) => step.textContent ?? '');
}

describe('the decision trace in the dialogs', () => {
  it('lists the mode, the hook and its answer, the shadowed rule with its file and the check', async () => {
    await openWith(approvalRequest('r1', 't1'));
    const dialog = screen.getByTestId('approval-dialog');
    const trace = within(dialog).getByTestId('decision-trace');
    expect(trace).not.toHaveAttribute('open');
    await userEvent.click(within(trace).getByText('Why am I asked?'));
    expect(trace).toHaveAttribute('open');
    expect(steps(dialog)).toEqual([
      'Mode Default',
      'Hook ./audit.sh (PreToolUse, /p/.claude/settings.json): exit 0, asks — Deploys need a look',
      'Rule Bash(npm *) (allow) in /p/.claude/settings.local.json — also matches, overridden',
      'Check outside the working directories — /tmp/x is outside the working directories',
    ]);
    expect(within(dialog).getByTestId('trace-decided-by')).toHaveTextContent('Decided by Hook ./audit.sh');
  });

  it('shows the reason as the engine wrote it, without changing its case', async () => {
    await openWith({ ...approvalRequest('r1', 't1'), reason: 'the hook `./audit.sh` asks: Deploys need a look' });
    expect(screen.getByTestId('approval-reason').textContent).toBe('the hook `./audit.sh` asks: Deploys need a look');
  });

  it('names settings files inside the project relative to it', async () => {
    const request = approvalRequest('r1', 't1');
    const folder = '/home/me/projects/demo';
    await openWith({
      ...request,
      trace: {
        steps: [{ type: 'rule', rule: 'Bash(git push:*)', behavior: 'ask', scope: 'projectSettings', file: `${folder}/.claude/settings.json`, role: 'decided' }],
        decided_by: { type: 'rule', rule: 'Bash(git push:*)', behavior: 'ask', scope: 'projectSettings', file: `${folder}/.claude/settings.json` },
      },
    });
    const dialog = screen.getByTestId('approval-dialog');
    expect(steps(dialog)).toEqual(['Rule Bash(git push:*) (ask) in .claude/settings.json — decided']);
  });

  it('is in the diff dialog too, and absent for requests recorded without a trace', async () => {
    const diff = { path: '/home/me/projects/demo/src/a.ts', old_text: 'a\n', new_text: 'b\n', is_new_file: false };
    await openWith(editRequest('r1', 't1', diff));
    const dialog = screen.getByTestId('diff-dialog');
    expect(within(dialog).getByTestId('decision-trace')).toBeInTheDocument();
    expect(steps(dialog)[0]).toBe('Mode Default');
  });

  it('is absent for requests recorded without a trace', async () => {
    await openWith({ ...approvalRequest('r1', 't1'), trace: null });
    expect(screen.queryByTestId('decision-trace')).not.toBeInTheDocument();
  });

  it('draws an approved call without the waiting colour, and a refused one as denied', async () => {
    const ipc = await openWith(approvalRequest('r1', 't1'));
    const ask = { decision: 'ask' as const, reason: 'default mode asks', rule: null, source: null, decided_by: null };
    const call = (id: string): SessionEvent[] => [
      { type: 'tool_call_started', tool_use_id: id, name: 'Bash' },
      { type: 'tool_call_input', tool_use_id: id, name: 'Bash', input: { command: 'ls' }, hints: hints('shell', `Run ls ${id}`) },
      { type: 'tool_call_decision', tool_use_id: id, decision: ask },
      { type: 'tool_call_status_changed', tool_use_id: id, status: 'waiting_for_approval' },
    ];
    ipc.push({ type: 'approval_resolved', request_id: 'r1' }, ...call('a'), ...call('b'));
    const decisions = () => screen.getAllByTestId('tool-decision');
    expect(decisions().map((d) => d.className)).toEqual(['tool-decision decision-ask', 'tool-decision decision-ask']);
    ipc.push(
      { type: 'tool_call_status_changed', tool_use_id: 'a', status: 'executing' },
      { type: 'tool_call_result', tool_use_id: 'a', outcome: 'success', content: 'ok', detail: null },
      { type: 'tool_call_result', tool_use_id: 'b', outcome: 'denied', content: 'no', detail: null },
    );
    expect(decisions().map((d) => d.className)).toEqual(['tool-decision decision-approved', 'tool-decision decision-deny']);
  });
});

// Per-hunk review in the diff dialog: rejecting a hunk, editing the proposed text, the answer that
// carries the person's version, Accept turning into Reject when nothing is left, and Enter keeping
// its meaning after a click on a toggle.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ApprovalAnswer, ApprovalRequest, FileDiff } from '../../generated/protocol';
import { editRequest } from '../../test/events';
import { installFakeIpc, type FakeIpc } from '../../test/fakeIpc';
import { App } from '../app/App';

async function openWith(request: ApprovalRequest): Promise<FakeIpc> {
  const ipc = installFakeIpc();
  render(<App />);
  await userEvent.click(await screen.findByTestId('open-folder-button'));
  await screen.findByTestId('folder-name');
  ipc.push({ type: 'turn_started', prompt: 'edit it' }, { type: 'approval_requested', request });
  return ipc;
}

const body = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`);
const twoHunks: FileDiff = {
  path: '/home/me/projects/demo/src/app.py',
  old_text: body.join('\n') + '\n',
  new_text: body.map((line, i) => (i === 1 ? 'LINE 2' : i === 10 ? 'LINE 11' : line)).join('\n') + '\n',
  is_new_file: false,
};

const answered = (ipc: FakeIpc): ApprovalAnswer[] => ipc.argsOf('answer_approval').map((args) => args.answer as ApprovalAnswer);

describe('per-hunk review', () => {
  it('rejects one hunk and sends the file with the other applied, with the message', async () => {
    const ipc = await openWith(editRequest('r1', 't1', twoHunks));
    const toggles = screen.getAllByTestId('hunk-toggle');
    expect(toggles.map((t) => t.textContent)).toEqual(['Hunk 1 · line 2 · +1 −1', 'Hunk 2 · line 11 · +1 −1']);
    await userEvent.click(toggles[0] as HTMLElement);
    expect(toggles[0]).toHaveAttribute('aria-checked', 'false');
    // The diff now shows only the change that stays.
    expect(screen.getByTestId('diff-stats')).toHaveTextContent('+1 −1');
    expect(screen.getByTestId('diff-accept')).toHaveTextContent('Accept your version');
    await userEvent.type(screen.getByTestId('diff-message'), 'keep line 2 as it is');
    await userEvent.click(screen.getByTestId('diff-accept'));
    await waitFor(() => expect(answered(ipc)).toHaveLength(1));
    expect(answered(ipc)[0]).toEqual({
      request_id: 'r1',
      choice: 'allow',
      message: 'keep line 2 as it is',
      revision: {
        text: body.map((line, i) => (i === 10 ? 'LINE 11' : line)).join('\n') + '\n',
        rejected_hunks: [1],
        total_hunks: 2,
        edited: false,
      },
    });
  });

  it('sends a hand-edited text as the person left it', async () => {
    const ipc = await openWith(editRequest('r1', 't1', twoHunks));
    await userEvent.click(screen.getByTestId('diff-edit-toggle'));
    const editor = screen.getByTestId('diff-editor');
    expect(editor).toHaveValue(twoHunks.new_text);
    await userEvent.clear(editor);
    // Enter in the editor is a new line, not an answer.
    await userEvent.type(editor, 'just{Enter}this{Enter}');
    expect(answered(ipc)).toHaveLength(0);
    await userEvent.click(screen.getByTestId('diff-edit-toggle'));
    expect(screen.getByTestId('diff-body')).toBeInTheDocument();
    await userEvent.click(screen.getByTestId('diff-accept'));
    await waitFor(() => expect(answered(ipc)).toHaveLength(1));
    expect(answered(ipc)[0]?.revision).toEqual({ text: 'just\nthis\n', rejected_hunks: [], total_hunks: 2, edited: true });
  });

  it('turns Accept into Reject when every hunk is rejected', async () => {
    const ipc = await openWith(editRequest('r1', 't1', twoHunks));
    for (const toggle of screen.getAllByTestId('hunk-toggle')) await userEvent.click(toggle);
    expect(screen.getByTestId('diff-accept')).toBeDisabled();
    // Enter after clicking a toggle still means the default answer, here a refusal (nothing is left).
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(answered(ipc)).toHaveLength(1));
    expect(answered(ipc)[0]).toMatchObject({ choice: 'deny' });
    expect(answered(ipc)[0]?.revision).toBeUndefined();
  });

  it('accepts the proposal as it is with Enter after switching the view', async () => {
    const ipc = await openWith(editRequest('r1', 't1', twoHunks));
    await userEvent.click(within(screen.getByRole('dialog')).getByTestId('diff-view-unified'));
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(answered(ipc)).toHaveLength(1));
    expect(answered(ipc)[0]).toEqual({ request_id: 'r1', choice: 'allow', message: null });
  });
});

// Tests of the diff dialog inside the session window, answering through a mocked IPC: what it
// shows, both layouts, word marks, folds, each answer and its keyboard, and a 5,000-line file.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ApprovalRequest, FileDiff } from '../../generated/protocol';
import { codeLines, editRequest } from '../../test/events';
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

const lines = codeLines(60);
const edited: FileDiff = {
  path: '/home/me/projects/demo/src/values.ts',
  old_text: lines.join('\n') + '\n',
  new_text: lines.map((line, i) => (i === 29 ? line.replace("'item'", "'entry'") : line)).join('\n') + '\n',
  is_new_file: false,
};

describe('DiffDialog', () => {
  it('shows the path, reason, what decided to ask, counts and the change with its changed word marked', async () => {
    await openWith(editRequest('r1', 't1', edited));
    const dialog = screen.getByRole('dialog');
    expect(dialog).toHaveAttribute('data-testid', 'diff-dialog');
    expect(within(dialog).getByTestId('diff-path')).toHaveTextContent('/home/me/projects/demo/src/values.ts');
    expect(within(dialog).queryByTestId('diff-new-file')).toBeNull();
    expect(within(dialog).getByTestId('approval-reason')).toHaveTextContent('Default mode asks before editing files');
    expect(within(dialog).getByTestId('approval-source')).toHaveTextContent('Asked by Default mode');
    expect(within(dialog).getByTestId('diff-stats')).toHaveTextContent('+1 −1');
    const words = within(dialog).getAllByTestId('diff-word');
    expect(words.map((word) => word.textContent)).toEqual(['item', 'entry']);
    // highlight.js loads with the first diff drawn.
    await waitFor(() => expect(dialog.querySelector('.hljs-keyword')).toHaveTextContent('export'));
  });

  it('switches between side by side and unified, and folds unchanged runs', async () => {
    await openWith(editRequest('r1', 't1', edited));
    const body = () => screen.getByTestId('diff-body');
    expect(body()).toHaveAttribute('data-view', 'split');
    // 3 context lines each side of the change; the rest of each run is folded.
    expect(screen.getAllByTestId('diff-fold')).toHaveLength(2);
    expect(within(body()).getAllByTestId('diff-line')).toHaveLength(7);
    await userEvent.click(screen.getByTestId('diff-view-unified'));
    expect(body()).toHaveAttribute('data-view', 'unified');
    expect(screen.getByTestId('diff-view-unified')).toHaveAttribute('aria-pressed', 'true');
    expect(within(body()).getAllByTestId('diff-line')).toHaveLength(8);
    await userEvent.click(screen.getAllByTestId('diff-fold')[0] as HTMLElement);
    expect(screen.getAllByTestId('diff-fold')).toHaveLength(1);
    expect(within(body()).getAllByTestId('diff-line')).toHaveLength(8 + 26);
  });

  it('names the sub-agent whose edit it is', async () => {
    await openWith({
      ...editRequest('r1', 't1', edited),
      sub_agent: { agent_type: 'refactorer', description: 'Rename item', parent_tool_use_id: 'a1', agent_id: 'x1' },
    });
    expect(within(screen.getByRole('dialog')).getByTestId('approval-asked-by')).toHaveTextContent(
      'Asked by sub-agent refactorer: Rename item',
    );
  });

  it('marks a new file and shows it unified', async () => {
    await openWith(editRequest('r1', 't1', { path: '/p/new.rs', old_text: '', new_text: 'fn main() {}\n', is_new_file: true }));
    expect(screen.getByTestId('diff-new-file')).toHaveTextContent('New file');
    expect(screen.getByTestId('diff-stats')).toHaveTextContent('+1 −0');
    expect(screen.getByTestId('diff-body')).toHaveAttribute('data-view', 'unified');
    expect(screen.queryByTestId('diff-view-split')).toBeNull();
  });

  it('Accept answers allow; Accept always answers allow_always', async () => {
    const ipc = await openWith(editRequest('r1', 't1', edited));
    expect(screen.getByTestId('diff-accept-always')).toHaveTextContent("Accept and don't ask again for Edit(src/**)");
    await userEvent.click(screen.getByTestId('diff-accept'));
    expect(ipc.argsOf('answer_approval')[0]).toMatchObject({ answer: { request_id: 'r1', choice: 'allow', message: null } });
  });

  it('Reject sends the message to the agent; Enter in the message box rejects', async () => {
    const ipc = await openWith(editRequest('r1', 't1', edited, false));
    expect(screen.queryByTestId('diff-accept-always')).toBeNull();
    await userEvent.type(screen.getByTestId('diff-message'), 'Keep the old name{Enter}');
    expect(ipc.argsOf('answer_approval')[0]).toMatchObject({
      answer: { request_id: 'r1', choice: 'deny', message: 'Keep the old name' },
    });
  });

  it('Enter accepts, Esc rejects', async () => {
    const ipc = await openWith(editRequest('r1', 't1', edited));
    await userEvent.keyboard('{Escape}');
    expect(ipc.argsOf('answer_approval')[0]).toMatchObject({ answer: { choice: 'deny' } });
  });

  // Speed is measured by the printed figures, not asserted: shared machines are too noisy for a time limit.
  it('opens a 5,000-line file with few rows in the DOM', async () => {
    const big = codeLines(5000);
    const changed = big.map((line, i) => (i % 500 === 250 ? line.replace('compute', 'recompute') : line));
    const ipc = installFakeIpc();
    render(<App />);
    await userEvent.click(await screen.findByTestId('open-folder-button'));
    await screen.findByTestId('folder-name');
    const started = performance.now();
    ipc.push(
      { type: 'turn_started', prompt: 'edit' },
      { type: 'approval_requested', request: editRequest('r1', 't1', { path: '/p/big.ts', old_text: big.join('\n'), new_text: changed.join('\n'), is_new_file: false }) },
    );
    screen.getByTestId('diff-dialog');
    const editOpen = performance.now() - started;
    expect(screen.getByTestId('diff-stats')).toHaveTextContent('+10 −10');
    expect(screen.getAllByTestId('diff-line').length).toBeLessThan(200);

    await userEvent.click(screen.getByTestId('diff-accept'));
    const created = performance.now();
    ipc.push({ type: 'approval_requested', request: editRequest('r2', 't2', { path: '/p/new.ts', old_text: '', new_text: big.join('\n'), is_new_file: true }) });
    screen.getByTestId('diff-dialog');
    const newOpen = performance.now() - created;
    expect(screen.getAllByTestId('diff-line').length).toBeLessThan(200);
    console.info(`5,000-line diff dialog in jsdom: edit ${editOpen.toFixed(0)} ms, new file ${newOpen.toFixed(0)} ms`);
  });
});

// The changes view: opened from the status bar, it lists every file the session changed and shows
// the selected one's combined diff; binary or huge files say why they are not shown.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ChangedFile } from '../../generated/protocol';
import { FOLDER, installFakeIpc } from '../../test/fakeIpc';
import { App } from '../app/App';

const files: ChangedFile[] = [
  { path: `${FOLDER}/src/app.py`, before: 'a = 1\nb = 2\n', after: 'a = 1\nb = 3\nc = 4\n', omitted: null },
  { path: `${FOLDER}/NOTES.md`, before: null, after: '# Notes\n', omitted: null },
  { path: `${FOLDER}/logo.png`, before: null, after: null, omitted: 'binary content' },
];

describe('ChangesView', () => {
  it('lists the changed files and shows each one’s diff since the session began', async () => {
    const ipc = installFakeIpc({ session_changes: () => files });
    render(<App />);
    await userEvent.click(await screen.findByTestId('open-folder-button'));
    await userEvent.click(await screen.findByTestId('changes-button'));
    const view = await screen.findByTestId('changes-view');
    await waitFor(() => expect(within(view).getAllByTestId('changes-file')).toHaveLength(3));
    expect(ipc.argsOf('session_changes')).toEqual([{ sessionId: 'session-1' }]);
    const rows = within(view).getAllByTestId('changes-file');
    expect(rows[0]).toHaveTextContent('src/app.py+2 −1');
    expect(rows[1]).toHaveTextContent('NOTES.mdNew+1 −0');
    expect(within(view).getByTestId('diff-body')).toHaveTextContent('c = 4');

    await userEvent.click(rows[2] as HTMLElement);
    expect(within(view).getByTestId('changes-omitted')).toHaveTextContent('logo.png: binary content');
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('changes-view')).not.toBeInTheDocument());
  });

  it('says when nothing changed, and shows a failure', async () => {
    installFakeIpc({
      session_changes: () => {
        throw { code: 'changes', message: 'the checkpoint store at /x cannot be used: damaged' };
      },
    });
    render(<App />);
    await userEvent.click(await screen.findByTestId('open-folder-button'));
    await userEvent.click(await screen.findByTestId('changes-button'));
    expect(await screen.findByTestId('error-banner')).toHaveTextContent('damaged');
  });
});

describe('kept worktrees', () => {
  it('merges one and discards another, then lists what is left', async () => {
    let kept = [
      { path: '/data/wt/a', branch: 'tandem/agent-a', changed_files: ['src/a.rs'] },
      { path: '/data/wt/b', branch: 'tandem/agent-b', changed_files: ['README.md', 'src/b.rs'] },
    ];
    const ipc = installFakeIpc({
      session_changes: () => [],
      kept_worktrees: () => kept,
      settle_worktree: (args) => {
        kept = kept.filter((w) => w.branch !== args.branch);
        return null;
      },
    });
    render(<App />);
    await userEvent.click(await screen.findByTestId('open-folder-button'));
    await userEvent.click(await screen.findByTestId('changes-button'));
    await waitFor(() => expect(screen.getAllByTestId('kept-worktree')).toHaveLength(2));
    expect(screen.getAllByTestId('kept-worktree')[1]).toHaveTextContent('2 changed files: README.md, src/b.rs');
    await userEvent.click(within(screen.getAllByTestId('kept-worktree')[0] as HTMLElement).getByTestId('worktree-merge'));
    await waitFor(() => expect(screen.getAllByTestId('kept-worktree')).toHaveLength(1));
    await userEvent.click(screen.getByTestId('worktree-discard'));
    await waitFor(() => expect(screen.queryByTestId('kept-worktrees')).not.toBeInTheDocument());
    expect(ipc.argsOf('settle_worktree')).toEqual([
      { sessionId: 'session-1', branch: 'tandem/agent-a', merge: true },
      { sessionId: 'session-1', branch: 'tandem/agent-b', merge: false },
    ]);
  });
});

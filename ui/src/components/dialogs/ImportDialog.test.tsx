// The import dialog: a cancelled picker closes it without a word; an import shows its counts, the sessions with
// their folders and Open, the problems, and tells the sidebar's lists to reload; a failed import shows the reason.
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { ImportSummary } from '../../generated/app';
import { onSessionsChanged } from '../../state/sessionsChanged';
import { ImportDialog } from './ImportDialog';

const summary: ImportSummary = {
  imported: [
    { session_id: 'a', folder: '/home/ana/src/quokka', title: 'Rename the quokka column', messages: 6 },
    { session_id: 'b', folder: '/home/ana/src/warren', title: '', messages: 1 },
  ],
  already_there: 1,
  problems: ['/home/ana/.claude/projects/x/damaged.jsonl:3: not JSON'],
};

function setup(run: (claudeCode: boolean) => Promise<ImportSummary | null>) {
  const onOpen = vi.fn();
  const onClose = vi.fn();
  const changed = vi.fn();
  const stop = onSessionsChanged(changed);
  render(<ImportDialog claudeCode run={run} onOpen={onOpen} onClose={onClose} />);
  return { onOpen, onClose, changed, stop };
}

describe('ImportDialog', () => {
  it('shows what came in and opens a session', async () => {
    const run = vi.fn(() => Promise.resolve(summary));
    const { onOpen, changed, stop } = setup(run);
    expect(run).toHaveBeenCalledWith(true);
    expect(await screen.findByTestId('import-counts')).toHaveTextContent('2 sessions imported, 1 was there already');
    expect(screen.getAllByTestId('import-item')).toHaveLength(2);
    expect(screen.getByText('(untitled)')).toBeInTheDocument();
    expect(screen.getByText('/home/ana/src/warren · 1 message')).toBeInTheDocument();
    expect(screen.getByTestId('import-problems')).toHaveTextContent('damaged.jsonl:3: not JSON');
    await waitFor(() => expect(changed).toHaveBeenCalledTimes(1));
    const [first] = screen.getAllByTestId('import-open');
    if (!first) throw new Error('no Open button');
    await userEvent.click(first);
    expect(onOpen).toHaveBeenCalledWith('/home/ana/src/quokka', 'a');
    stop();
  });

  it('closes without a word when the picker was cancelled', async () => {
    const { onClose, changed, stop } = setup(() => Promise.resolve(null));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(screen.queryByTestId('import-dialog')).toBeNull();
    expect(changed).not.toHaveBeenCalled();
    stop();
  });

  it('says nothing was found, and lists nothing as changed', async () => {
    const { changed, stop } = setup(() => Promise.resolve({ imported: [], already_there: 0, problems: [] }));
    expect(await screen.findByTestId('import-counts')).toHaveTextContent('0 sessions imported: no transcripts were found');
    expect(changed).not.toHaveBeenCalled();
    stop();
  });

  it('shows why an import failed, and Esc closes it', async () => {
    const { onClose, stop } = setup(() => Promise.reject(Object.assign(new Error('/home/me/.claude/projects does not exist'), { code: 'carry' })));
    expect(await screen.findByText(/does not exist/)).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalled();
    stop();
  });
});

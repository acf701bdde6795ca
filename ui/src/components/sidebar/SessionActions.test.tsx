// Renaming, deleting and searching sessions in the sidebar, against a mocked IPC that keeps the list.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { SessionSummary } from '../../generated/protocol';
import { installFakeIpc, sessionInfo } from '../../test/fakeIpc';
import { App } from '../app/App';

const now = Date.now();

function fakeStore() {
  let list: SessionSummary[] = [
    { session_id: 'session-1', title: 'Fix the build', updated_at_ms: now - 60_000, message_count: 2, pinned: false, archived: false, tags: [], collection_id: null },
    { session_id: 'a', title: 'Upgrade the parser', updated_at_ms: now - 120_000, message_count: 4, pinned: false, archived: false, tags: [], collection_id: null },
    { session_id: 'b', title: 'Write the README', updated_at_ms: now - 180_000, message_count: 6, pinned: false, archived: false, tags: [], collection_id: null },
    { session_id: 'c', title: 'Parser benchmarks', updated_at_ms: now - 240_000, message_count: 2, pinned: false, archived: false, tags: [], collection_id: null },
  ];
  const ipc = installFakeIpc({
    list_sessions: () => list,
    open_session: () => sessionInfo({ session_id: 'session-1' }),
    rename_session: (args) => {
      list = list.map((each) => (each.session_id === args.sessionId ? { ...each, title: String(args.title) } : each));
      return null;
    },
    delete_session: (args) => {
      if (args.sessionId === 'b') throw { code: 'session_busy', message: 'a turn is running in that session' };
      list = list.filter((each) => each.session_id !== args.sessionId);
      return null;
    },
  });
  return ipc;
}

async function open() {
  const ipc = fakeStore();
  render(<App />);
  await userEvent.click(await screen.findByTestId('open-folder-button'));
  await waitFor(() => expect(screen.getAllByTestId('session-item')).toHaveLength(4));
  return ipc;
}

const titles = () => screen.getAllByTestId('session-item').map((item) => item.getAttribute('title'));
const row = (id: string) => screen.getAllByTestId('session-item').find((item) => item.dataset.sessionId === id)?.closest('li') as HTMLElement;

describe('session actions', () => {
  it('renames a session with Enter, and Esc cancels', async () => {
    const ipc = await open();
    await userEvent.click(within(row('a')).getByTestId('session-rename'));
    const input = screen.getByTestId('session-rename-input');
    await userEvent.clear(input);
    await userEvent.type(input, 'Parser upgrade, part 1{Enter}');
    expect(ipc.argsOf('rename_session')).toEqual([{ sessionId: 'a', title: 'Parser upgrade, part 1' }]);
    await waitFor(() => expect(titles()).toContain('Parser upgrade, part 1'));

    await userEvent.dblClick(within(row('b')).getByTestId('session-item'));
    await userEvent.type(screen.getByTestId('session-rename-input'), ' never saved{Escape}');
    expect(ipc.argsOf('rename_session')).toHaveLength(1);
    expect(titles()).toContain('Write the README');
  });

  it('deletes another session after confirmation, never the current one, and shows a refusal', async () => {
    const ipc = await open();
    expect(within(row('session-1')).queryByTestId('session-delete')).toBeNull();
    await userEvent.click(within(row('c')).getByTestId('session-delete'));
    await userEvent.click(within(row('c')).getByTestId('session-delete-confirm'));
    await waitFor(() => expect(titles()).not.toContain('Parser benchmarks'));
    expect(ipc.argsOf('delete_session')).toEqual([{ sessionId: 'c' }]);

    await userEvent.click(within(row('b')).getByTestId('session-delete'));
    await userEvent.click(within(row('b')).getByTestId('session-delete-confirm'));
    expect(await screen.findByTestId('session-action-error')).toHaveTextContent('a turn is running');
    expect(titles()).toContain('Write the README');
  });

  it('filters by title', async () => {
    await open();
    await userEvent.type(screen.getByTestId('session-search'), 'parser');
    expect(titles()).toEqual(['Upgrade the parser', 'Parser benchmarks']);
    await userEvent.clear(screen.getByTestId('session-search'));
    await userEvent.type(screen.getByTestId('session-search'), 'zzz');
    expect(screen.queryAllByTestId('session-item')).toHaveLength(0);
  });
});

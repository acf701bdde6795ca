// Organising sessions in the sidebar, against a mocked IPC that keeps them (the fake backend's FakeOrganise): pins
// first, tags as chips and as a filter, folders made from a session's menu (nested, collapsible, renamed, deleted
// with their sessions moving up), the archive and restoring from it.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { SessionSummary } from '../../generated/protocol';
import { FakeOrganise } from '../../mock/fakeOrganise';
import { FOLDER, installFakeIpc, sessionInfo } from '../../test/fakeIpc';
import { App } from '../app/App';

const now = Date.now();
const summary = (session_id: string, title: string, ago: number): SessionSummary => ({
  session_id,
  title,
  updated_at_ms: now - ago,
  message_count: 2,
  pinned: false,
  archived: false,
  tags: [],
  collection_id: null,
});

async function open() {
  const organised = new FakeOrganise();
  const list = [summary('session-1', 'Fix the build', 1_000), summary('a', 'Upgrade the parser', 2_000), summary('b', 'Write the README', 3_000)];
  const ipc = installFakeIpc({
    list_sessions: () => organised.apply(list),
    list_collections: () => organised.collections(FOLDER),
    open_session: () => sessionInfo({ session_id: 'session-1' }),
    set_session_pinned: (args) => organised.change(String(args.sessionId), { pinned: args.pinned === true }),
    set_session_archived: (args) => organised.change(String(args.sessionId), { archived: args.archived === true }),
    set_session_tags: (args) => organised.change(String(args.sessionId), { tags: (args.tags as string[]).slice().sort() }),
    move_session: (args) => organised.change(String(args.sessionId), { collection_id: (args.collectionId as number | null) ?? null }),
    create_collection: (args) => organised.create(FOLDER, String(args.name), (args.parentId as number | null) ?? null),
    rename_collection: (args) => organised.rename(args.id as number, String(args.name)),
    delete_collection: (args) => organised.delete(args.id as number),
  });
  render(<App />);
  await userEvent.click(await screen.findByTestId('open-folder-button'));
  await waitFor(() => expect(screen.getAllByTestId('session-item')).toHaveLength(3));
  return ipc;
}

const ids = () => screen.getAllByTestId('session-item').map((item) => item.dataset.sessionId);
const row = (id: string) => screen.getAllByTestId('session-row').find((item) => item.dataset.sessionId === id) as HTMLElement;
async function menu(id: string, action: string) {
  await userEvent.click(within(row(id)).getByTestId('session-menu'));
  await userEvent.click(within(screen.getByTestId('sidebar-menu')).getByTestId(action));
}

describe('organising sessions', () => {
  it('pins a session to the top and unpins it', async () => {
    const ipc = await open();
    await menu('b', 'menu-pin');
    await waitFor(() => expect(ids()).toEqual(['b', 'session-1', 'a']));
    expect(within(row('b')).getByTestId('session-pin')).toBeInTheDocument();
    expect(ipc.argsOf('set_session_pinned')).toEqual([{ sessionId: 'b', pinned: true }]);
    await menu('b', 'menu-pin');
    await waitFor(() => expect(ids()).toEqual(['session-1', 'a', 'b']));
  });

  it('tags sessions, shows the tags as chips and filters by one', async () => {
    const ipc = await open();
    await menu('a', 'menu-tags');
    await userEvent.type(screen.getByTestId('session-tags-input'), 'Parser, ui{Enter}');
    expect(ipc.argsOf('set_session_tags')).toEqual([{ sessionId: 'a', tags: ['parser', 'ui'] }]);
    await waitFor(() => expect(within(row('a')).getAllByTestId('tag-chip').map((chip) => chip.textContent)).toEqual(['parser', 'ui']));
    await menu('b', 'menu-tags');
    await userEvent.type(screen.getByTestId('session-tags-input'), 'ui{Enter}');
    await waitFor(() => expect(within(row('b')).getAllByTestId('tag-chip')).toHaveLength(1));

    await userEvent.click(within(row('a')).getAllByTestId('tag-chip')[0] as HTMLElement);
    expect(ids()).toEqual(['a']);
    const parser = screen.getAllByTestId('tag-filter-chip').find((chip) => chip.textContent === 'parser') as HTMLElement;
    expect(parser).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(parser);
    expect(ids()).toEqual(['session-1', 'a', 'b']);
  });

  it('puts a session in a new folder, nests another inside, collapses, renames and deletes it', async () => {
    const ipc = await open();
    await menu('a', 'menu-new-folder');
    await userEvent.type(screen.getByTestId('folder-name-input'), 'Parser work{Enter}');
    const folder = await screen.findByTestId('folder-row');
    expect(folder).toHaveTextContent('Parser work');
    await waitFor(() => expect(within(folder.closest('li') as HTMLElement).getAllByTestId('session-item').map((item) => item.dataset.sessionId)).toEqual(['a']));
    expect(ipc.argsOf('move_session')).toEqual([{ sessionId: 'a', collectionId: 1 }]);

    // A folder inside it, from the folder's menu; then b moved into the inner one.
    await userEvent.pointer({ keys: '[MouseRight]', target: folder });
    await userEvent.click(within(screen.getByTestId('sidebar-menu')).getByTestId('menu-new-subfolder'));
    await userEvent.type(screen.getByTestId('folder-name-input'), 'Old{Enter}');
    await waitFor(() => expect(screen.getAllByTestId('folder-row')).toHaveLength(2));
    await menu('b', 'menu-move-2');
    await waitFor(() => expect(within(screen.getAllByTestId('folder-row')[1]?.closest('li') as HTMLElement).queryAllByTestId('session-item')).toHaveLength(1));

    // Collapsing the outer folder hides both sessions in it.
    await userEvent.click(screen.getAllByTestId('folder-row')[0] as HTMLElement);
    expect(ids()).toEqual(['session-1']);
    await userEvent.click(screen.getAllByTestId('folder-row')[0] as HTMLElement);

    await userEvent.pointer({ keys: '[MouseRight]', target: screen.getAllByTestId('folder-row')[0] as HTMLElement });
    await userEvent.click(within(screen.getByTestId('sidebar-menu')).getByTestId('menu-rename-folder'));
    const rename = screen.getByTestId('folder-name-input');
    await userEvent.clear(rename);
    await userEvent.type(rename, 'Parser{Enter}');
    await waitFor(() => expect(screen.getAllByTestId('folder-row')[0]).toHaveTextContent('Parser'));

    // Deleting the outer folder moves a up to the top and the inner folder (with b) up with it.
    await userEvent.pointer({ keys: '[MouseRight]', target: screen.getAllByTestId('folder-row')[0] as HTMLElement });
    await userEvent.click(within(screen.getByTestId('sidebar-menu')).getByTestId('menu-delete-folder'));
    await waitFor(() => expect(screen.getAllByTestId('folder-row')).toHaveLength(1));
    expect(screen.getByTestId('folder-row')).toHaveTextContent('Old');
    expect(ids()).toEqual(['b', 'session-1', 'a']);
  });

  it('archives a session out of the list and restores it from Archived', async () => {
    const ipc = await open();
    await menu('a', 'menu-archive');
    await waitFor(() => expect(ids()).toEqual(['session-1', 'b']));
    const archived = screen.getByTestId('archived-toggle');
    expect(archived).toHaveTextContent('Archived1');
    await userEvent.click(archived);
    expect(ids()).toEqual(['session-1', 'b', 'a']);
    await userEvent.click(within(row('a')).getByTestId('session-restore'));
    await waitFor(() => expect(screen.queryByTestId('archived-toggle')).toBeNull());
    expect(ids()).toEqual(['session-1', 'a', 'b']);
    expect(ipc.argsOf('set_session_archived')).toEqual([
      { sessionId: 'a', archived: true },
      { sessionId: 'a', archived: false },
    ]);
    // The current session cannot be archived from under the window.
    await userEvent.click(within(row('session-1')).getByTestId('session-menu'));
    expect(within(screen.getByTestId('sidebar-menu')).getByTestId('menu-archive')).toBeDisabled();
  });

  it('hides a row’s tooltip while its menu is open, so it covers none of the menu', async () => {
    await open();
    const item = () => within(row('b')).getByTestId('session-item');
    const title = item().getAttribute('title');
    expect(title).toBeTruthy();
    await userEvent.click(within(row('b')).getByTestId('session-menu'));
    expect(screen.getByTestId('sidebar-menu')).toBeInTheDocument();
    expect(item().getAttribute('title')).toBeNull();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('sidebar-menu')).toBeNull());
    expect(item().getAttribute('title')).toBe(title);
  });
});

// Tests of the sessions sidebar in the session window with a mocked IPC: the list newest first
// with the current session highlighted, reopening a stored session (its replayed events rebuild
// the transcript; one an external agent ran goes on with that agent, or with Tandem's own model when the agent
// cannot), New Session, refreshing after a turn, and collapsing.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SessionSummary } from '../../generated/protocol';
import { FOLDER, installFakeIpc, sessionInfo, shownSession } from '../../test/fakeIpc';
import { App } from '../app/App';

const now = Date.now();
const stored: SessionSummary[] = [
  { session_id: 'old', title: 'An older session', updated_at_ms: now - 3 * 86_400_000, message_count: 8, pinned: false, archived: false, tags: [], collection_id: null },
  { session_id: 'session-1', title: 'Fix the build', updated_at_ms: now - 60_000, message_count: 2, pinned: false, archived: false, tags: [], collection_id: null },
  { session_id: 'mid', title: 'Yesterday’s work', updated_at_ms: now - 26 * 3_600_000, message_count: 1, pinned: false, archived: false, tags: [], collection_id: null },
];

async function openFolder(list: () => SessionSummary[] = () => stored) {
  const ipc = installFakeIpc({
    list_sessions: () => list(),
    open_session: (args) => sessionInfo({ session_id: typeof args.resume === 'string' ? args.resume : 'session-1' }),
  });
  render(<App />);
  await userEvent.click(await screen.findByTestId('open-folder-button'));
  await screen.findByTestId('folder-name');
  await waitFor(() => expect(screen.getAllByTestId('session-item')).toHaveLength(3));
  return ipc;
}

/** The sidebar rows of the session shown. */
const items = () => shownSession().getAllByTestId('session-item');

beforeEach(() => localStorage.clear());

describe('SessionSidebar', () => {
  it('lists the folder’s sessions newest first, the current one highlighted', async () => {
    const ipc = await openFolder();
    expect(ipc.argsOf('list_sessions')[0]).toEqual({ path: FOLDER });
    expect(items().map((item) => item.dataset.sessionId)).toEqual(['session-1', 'mid', 'old']);
    expect(items()[0]).toHaveAttribute('aria-current', 'true');
    expect(items()[0]).toHaveTextContent('Fix the build');
    expect(items()[0]).toHaveTextContent('1 min ago · 2 messages');
    expect(items()[1]).toHaveTextContent('yesterday · 1 message');
    expect(items()[2]).toHaveTextContent('3 days ago · 8 messages');
  });

  it('reopens a stored session, whose replayed events rebuild the transcript', async () => {
    const ipc = await openFolder();
    await userEvent.click(items()[2] as HTMLElement);
    await waitFor(() => expect(ipc.argsOf('open_session')).toHaveLength(2));
    expect(ipc.argsOf('open_session')[1]).toMatchObject({ path: FOLDER, resume: 'old' });
    ipc.push(
      { type: 'turn_started', prompt: 'An older session' },
      { type: 'text_delta', text: 'Restored answer' },
      { type: 'turn_ended', stop_reason: 'end_turn' },
      { type: 'mode_changed', mode: 'plan' },
    );
    expect(await screen.findByText('Restored answer')).toBeInTheDocument();
    // It opens in a tab of its own, shown; the first session stays open in its tab.
    expect(shownSession().getByTestId('mode-switcher')).toHaveAttribute('data-mode', 'plan');
    expect(screen.getAllByTestId('session-tab').map((tab) => [tab.dataset.sessionId, tab.dataset.shown])).toEqual([
      ['session-1', 'false'],
      ['old', 'true'],
    ]);
    await waitFor(() => expect(items().find((item) => item.dataset.sessionId === 'old')).toHaveAttribute('aria-current', 'true'));
    // Opening it again from the first tab's sidebar shows its tab instead of reopening it.
    await userEvent.click(screen.getAllByTestId('session-tab')[0]?.querySelector('[role="tab"]') as HTMLElement);
    await userEvent.click(items().find((item) => item.dataset.sessionId === 'old') as HTMLElement);
    await waitFor(() => expect(screen.getAllByTestId('session-tab')[1]).toHaveAttribute('data-shown', 'true'));
    expect(ipc.argsOf('open_session')).toHaveLength(2);
  });

  it('New Session opens a new session on the folder', async () => {
    const ipc = await openFolder();
    await userEvent.click(screen.getByTestId('new-session-button'));
    await waitFor(() => expect(ipc.argsOf('open_session')).toHaveLength(2));
    expect(ipc.argsOf('open_session')[1]).toMatchObject({ path: FOLDER, resume: null });
  });

  it('shows a new session that is not stored yet, and refreshes the list when a turn ends', async () => {
    let list = stored.filter((each) => each.session_id !== 'session-1');
    const ipc = await openFolder(() => list);
    expect(items()[0]).toHaveTextContent('New session');
    expect(items()[0]).toHaveAttribute('aria-current', 'true');
    const loads = ipc.argsOf('list_sessions').length;
    list = stored;
    ipc.push({ type: 'turn_started', prompt: 'Fix the build' });
    ipc.push({ type: 'turn_ended', stop_reason: 'end_turn' });
    await waitFor(() => expect(items()[0]).toHaveTextContent('Fix the build'));
    expect(ipc.argsOf('list_sessions').length).toBe(loads + 1);
  });

  it('refreshes the list after a turn whose start and end arrive in one batch', async () => {
    let list = stored.filter((each) => each.session_id !== 'session-1');
    const ipc = await openFolder(() => list);
    const loads = ipc.argsOf('list_sessions').length;
    list = stored;
    ipc.push({ type: 'turn_started', prompt: 'Fix the build' }, { type: 'turn_ended', stop_reason: 'end_turn' });
    await waitFor(() => expect(items()[0]).toHaveTextContent('Fix the build'));
    expect(ipc.argsOf('list_sessions').length).toBe(loads + 1);
  });

  it('collapses to a rail and remembers it', async () => {
    await openFolder();
    const sidebar = screen.getByTestId('session-sidebar');
    await userEvent.click(within(sidebar).getByTestId('session-sidebar-toggle'));
    expect(sidebar).toHaveAttribute('data-collapsed', 'true');
    expect(screen.queryAllByTestId('session-item')).toHaveLength(0);
    expect(within(sidebar).getByTestId('new-session-button')).toBeInTheDocument();
    expect(localStorage.getItem('tandem.sidebarCollapsed')).toBe('true');
  });

  it('reopens a session an external agent ran with that agent, and offers Tandem’s own model when it cannot', async () => {
    let agentThere = true;
    const ipc = installFakeIpc({
      list_sessions: () => stored,
      open_session: (args) => {
        if (args.resume === 'old' && args.ownAgent !== true) throw { code: 'hosted_session', message: 'session old was run by claude' };
        return sessionInfo({ session_id: typeof args.resume === 'string' ? args.resume : 'session-1' });
      },
      open_hosted_session: (args) => {
        if (!agentThere) throw { code: 'agent', message: 'the agent `claude` that ran this session is no longer configured' };
        return sessionInfo({ session_id: String(args.resume), model: 'acp:claude' });
      },
    });
    render(<App />);
    await userEvent.click(await screen.findByTestId('open-folder-button'));
    await waitFor(() => expect(screen.getAllByTestId('session-item')).toHaveLength(3));

    await userEvent.click(items()[2] as HTMLElement);
    await waitFor(() => expect(ipc.argsOf('open_hosted_session')).toHaveLength(1));
    expect(ipc.argsOf('open_hosted_session')[0]).toMatchObject({ resume: 'old', agent: null, remote: null });
    await waitFor(() => expect(shownSession().getByTestId('model-name')).toHaveTextContent('acp:claude'));
    expect(screen.queryByTestId('hosted-reopen-failed')).not.toBeInTheDocument();

    // Closed, and its agent gone: why, and Tandem's own model on request.
    await userEvent.click(within(screen.getAllByTestId('session-tab')[1] as HTMLElement).getByRole('button', { name: /close/i }));
    agentThere = false;
    await waitFor(() => expect(screen.getAllByTestId('session-tab')).toHaveLength(1));
    await userEvent.click(shownSession().getAllByTestId('session-item').find((item) => item.dataset.sessionId === 'old') as HTMLElement);
    const failed = await screen.findByTestId('hosted-reopen-failed');
    expect(within(failed).getByTestId('hosted-reopen-message')).toHaveTextContent('no longer configured');
    await userEvent.click(within(failed).getByTestId('hosted-reopen-own'));
    await waitFor(() => expect(screen.queryByTestId('hosted-reopen-failed')).not.toBeInTheDocument());
    expect(ipc.argsOf('open_session').at(-1)).toMatchObject({ resume: 'old', ownAgent: true });
    await waitFor(() => expect(screen.getAllByTestId('session-tab')).toHaveLength(2));
  });
});

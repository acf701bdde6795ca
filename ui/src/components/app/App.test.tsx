// Tests of the whole window against a mocked IPC: welcome screen, opening folders (picker,
// recent, command line, menu events, failures), streaming a turn, stopping it, switching modes, the tabs of several
// sessions (each folding its own events, its dialogs shown only in its tab, closing and cycling), reloading.
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { emit } from '@tauri-apps/api/event';
import { describe, expect, it } from 'vitest';
import { ChannelSender, isChannelArg } from '../../mock/channel';
import { approvalRequest } from '../../test/events';
import { FOLDER, installFakeIpc, sessionInfo, shownSession } from '../../test/fakeIpc';
import { App } from './App';

describe('App', () => {
  it('shows the welcome screen with recent folders when started without a folder', async () => {
    installFakeIpc({}, { recent: ['/a/one', '/b/two'] });
    render(<App />);
    expect(await screen.findByTestId('open-folder-button')).toHaveTextContent('Open Folder…');
    const recent = await screen.findAllByTestId('recent-folder');
    expect(recent.map((item) => item.dataset.path)).toEqual(['/a/one', '/b/two']);
    expect(recent[0]).toHaveTextContent('one');
  });

  it('opens the folder chosen in the picker', async () => {
    const ipc = installFakeIpc();
    render(<App />);
    await userEvent.click(await screen.findByTestId('open-folder-button'));
    expect(await screen.findByTestId('folder-name')).toHaveTextContent('demo');
    expect(ipc.argsOf('pick_folder')).toHaveLength(1);
    expect(ipc.argsOf('open_session')[0]).toMatchObject({ path: FOLDER });
  });

  it('does nothing when the picker is cancelled', async () => {
    const ipc = installFakeIpc({ pick_folder: () => null });
    render(<App />);
    await userEvent.click(await screen.findByTestId('open-folder-button'));
    await waitFor(() => expect(ipc.argsOf('pick_folder')).toHaveLength(1));
    expect(ipc.argsOf('open_session')).toHaveLength(0);
    expect(screen.getByTestId('welcome')).toBeInTheDocument();
  });

  it('opens a recent folder', async () => {
    const ipc = installFakeIpc({}, { recent: ['/x/recent-one'] });
    render(<App />);
    await userEvent.click(await screen.findByTestId('recent-folder'));
    expect(await screen.findByTestId('folder-name')).toHaveTextContent('recent-one');
    expect(ipc.argsOf('open_session')[0]).toMatchObject({ path: '/x/recent-one' });
  });

  it('opens the folder given on the command line', async () => {
    installFakeIpc({}, { folder: '/work/cli-folder' });
    render(<App />);
    expect(await screen.findByTestId('folder-name')).toHaveTextContent('cli-folder');
  });

  it('shows why a folder could not be opened', async () => {
    installFakeIpc({
      open_session: (args) => {
        throw { code: 'folder_not_found', message: `Folder not found: ${String(args.path)}` };
      },
    }, { recent: ['/gone'] });
    render(<App />);
    await userEvent.click(await screen.findByTestId('recent-folder'));
    expect(await screen.findByTestId('error-banner')).toHaveTextContent('Folder not found: /gone');
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByTestId('error-banner')).not.toBeInTheDocument();
  });

  it('opens another folder in a new tab while the first one’s turn runs on, and asks before closing a running tab', async () => {
    const ipc = installFakeIpc();
    render(<App />);
    await emit('tandem://open-folder', { path: '/work/first' });
    expect(await screen.findByTestId('folder-name')).toHaveTextContent('first');
    ipc.pushOn(0, { type: 'turn_started', prompt: 'long job' });
    await emit('tandem://open-folder', { path: '/work/second' });
    await waitFor(() => expect(screen.getAllByTestId('session-tab')).toHaveLength(2));
    expect(shownSession().getByTestId('folder-name')).toHaveTextContent('second');
    expect(ipc.argsOf('interrupt')).toHaveLength(0);
    // The hidden first session keeps folding its events, and its tab shows it runs.
    ipc.pushOn(0, { type: 'text_delta', text: 'Still working in the first folder' });
    const [first, second] = screen.getAllByTestId('session-tab');
    expect(first).toHaveAttribute('data-mark', 'running');
    expect(second).not.toHaveAttribute('data-mark');

    // Ctrl+Tab shows the first again, with what arrived while it was hidden.
    await userEvent.keyboard('{Control>}{Tab}{/Control}');
    await waitFor(() => expect(shownSession().getByTestId('folder-name')).toHaveTextContent('first'));
    expect(shownSession().getByTestId('assistant-text')).toHaveTextContent('Still working in the first folder');

    // Ctrl+W on a running tab asks; Esc keeps it, confirming stops its turn and closes it.
    await userEvent.keyboard('{Control>}w{/Control}');
    expect(await screen.findByTestId('close-tab-confirm')).toHaveTextContent('/work/first');
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('close-tab-confirm')).toBeNull());
    expect(ipc.argsOf('close_session')).toHaveLength(0);
    await userEvent.keyboard('{Control>}w{/Control}');
    await userEvent.click(await screen.findByTestId('close-tab-yes'));
    await waitFor(() => expect(screen.getAllByTestId('session-tab')).toHaveLength(1));
    expect(ipc.argsOf('close_session')).toEqual([{ sessionId: 'session-1' }]);
    expect(shownSession().getByTestId('folder-name')).toHaveTextContent('second');

    // An idle tab closes at once; closing the last one shows the welcome screen.
    await userEvent.click(screen.getByTestId('session-tab-close'));
    expect(await screen.findByTestId('welcome')).toBeInTheDocument();
    expect(ipc.argsOf('close_session')).toEqual([{ sessionId: 'session-1' }, { sessionId: 'session-2' }]);
  });

  it('shows a hidden tab’s waiting dialog only when its tab is shown', async () => {
    const ipc = installFakeIpc();
    render(<App />);
    await emit('tandem://open-folder', { path: '/work/first' });
    await screen.findByTestId('folder-name');
    await emit('tandem://open-folder', { path: '/work/second' });
    await waitFor(() => expect(screen.getAllByTestId('session-tab')).toHaveLength(2));
    ipc.pushOn(
      0,
      { type: 'turn_started', prompt: 'touch it' },
      { type: 'tool_call_started', tool_use_id: 't1', name: 'Bash' },
      { type: 'tool_call_status_changed', tool_use_id: 't1', status: 'waiting_for_approval' },
      { type: 'approval_requested', request: approvalRequest('r1', 't1') },
    );
    await waitFor(() => expect(screen.getAllByTestId('session-tab')[0]).toHaveAttribute('data-mark', 'waiting'));
    expect(screen.queryByTestId('approval-dialog')).toBeNull();
    await userEvent.click(screen.getAllByTestId('session-tab')[0]?.querySelector('[role="tab"]') as HTMLElement);
    expect(await screen.findByTestId('approval-dialog')).toBeInTheDocument();
    await userEvent.keyboard('{Control>}{Shift>}{Tab}{/Shift}{/Control}');
    await waitFor(() => expect(screen.queryByTestId('approval-dialog')).toBeNull());
    expect(shownSession().getByTestId('folder-name')).toHaveTextContent('second');
  });

  it('follows File ▸ Open Folder and New Session from the menu', async () => {
    const ipc = installFakeIpc();
    render(<App />);
    await screen.findByTestId('open-folder-button');
    await emit('tandem://open-folder', { path: '/menu/chosen' });
    expect(await screen.findByTestId('folder-name')).toHaveTextContent('chosen');
    await emit('tandem://new-session');
    await waitFor(() => expect(ipc.argsOf('open_session')).toHaveLength(2));
    expect(ipc.argsOf('open_session')[1]).toMatchObject({ path: '/menu/chosen', resume: null });
    // The new session opens in a tab of its own.
    await waitFor(() => expect(screen.getAllByTestId('session-tab')).toHaveLength(2));
  });

  it('shows the setup hint of a session that cannot reach a model', async () => {
    installFakeIpc({ open_session: () => sessionInfo({ setup_hint: 'Set ANTHROPIC_API_KEY to talk to a model.' }) });
    render(<App />);
    await userEvent.click(await screen.findByTestId('open-folder-button'));
    expect(await screen.findByTestId('setup-hint')).toHaveTextContent('Set ANTHROPIC_API_KEY');
  });

  it('sends a prompt and shows the streamed turn', async () => {
    const ipc = installFakeIpc();
    render(<App />);
    await userEvent.click(await screen.findByTestId('open-folder-button'));
    const input = await screen.findByTestId('prompt-input');
    await userEvent.type(input, 'Fix the bug{Enter}');
    expect(ipc.argsOf('send_prompt')).toEqual([{ sessionId: 'session-1', prompt: 'Fix the bug', images: null }]);

    ipc.push({ type: 'turn_started', prompt: 'Fix the bug' }, { type: 'text_delta', text: 'Looking ' });
    ipc.push({ type: 'text_delta', text: 'at `main.rs`' });
    expect(screen.getByTestId('user-prompt')).toHaveTextContent('Fix the bug');
    // Shown as written (`main.rs` in backticks) until the markdown renderer has loaded.
    await waitFor(() => expect(screen.getByTestId('assistant-text')).toHaveTextContent('Looking at main.rs'));
    expect(screen.getByTestId('stop-button')).toBeInTheDocument();
    // Typing goes on while the turn runs; what is sent waits for the turn to end.
    await userEvent.type(screen.getByTestId('prompt-input'), 'Then add a test{Enter}');
    await userEvent.type(screen.getByTestId('prompt-input'), 'and update the docs{Enter}');
    expect(screen.getByTestId('queued-prompt')).toHaveTextContent('Then add a test');
    expect(ipc.argsOf('send_prompt')).toHaveLength(1);

    ipc.push(
      { type: 'usage_updated', turn: usage(1200, 80), session: usage(1200, 80), cost_usd: 0.0123 },
      { type: 'turn_ended', stop_reason: 'end_turn' },
    );
    expect(screen.queryByTestId('stop-button')).not.toBeInTheDocument();
    expect(screen.getByTestId('prompt-input')).toBeEnabled();
    await waitFor(() => expect(ipc.argsOf('send_prompt')).toHaveLength(2));
    expect(ipc.argsOf('send_prompt')[1]).toEqual({ sessionId: 'session-1', prompt: 'Then add a test\n\nand update the docs', images: null });
    expect(screen.queryByTestId('queued-prompt')).toBeNull();
    expect(screen.getByTestId('token-usage')).toHaveTextContent('↑ 1.2k ↓ 80');
    expect(screen.getByTestId('cost')).toHaveTextContent('$0.01');
    expect(screen.getByTestId('model-name')).toHaveTextContent('claude-test-1');
    // 1,200 in + 80 out of a 200k window.
    expect(screen.getByTestId('context-meter')).toHaveAttribute('data-percent', '1');
    ipc.push({ type: 'usage_updated', turn: usage(150_000, 2_000), session: usage(151_200, 2_080), cost_usd: 0.5 });
    expect(screen.getByTestId('context-meter')).toHaveTextContent('76%');
    expect(screen.getByTestId('context-meter')).toHaveClass('context-near');
  });

  it('stops a running turn with the stop button and with Esc', async () => {
    const ipc = installFakeIpc();
    render(<App />);
    await userEvent.click(await screen.findByTestId('open-folder-button'));
    await screen.findByTestId('folder-name');
    ipc.push({ type: 'turn_started', prompt: 'long job' });
    await userEvent.click(screen.getByTestId('stop-button'));
    await userEvent.keyboard('{Escape}');
    expect(ipc.argsOf('interrupt')).toEqual([{ sessionId: 'session-1' }, { sessionId: 'session-1' }]);
    ipc.push({ type: 'turn_ended', stop_reason: 'interrupted' });
    expect(screen.getByTestId('turn-end')).toHaveTextContent('Interrupted');
    await userEvent.keyboard('{Escape}');
    expect(ipc.argsOf('interrupt')).toHaveLength(2);
  });

  it('shows a failed prompt and keeps its text', async () => {
    installFakeIpc({
      send_prompt: () => {
        throw { code: 'no_model', message: 'No API key configured' };
      },
    });
    render(<App />);
    await userEvent.click(await screen.findByTestId('open-folder-button'));
    await userEvent.type(await screen.findByTestId('prompt-input'), 'hello{Enter}');
    expect(await screen.findByTestId('error-banner')).toHaveTextContent('No API key configured');
    expect(screen.getByTestId('prompt-input')).toHaveValue('hello');
  });

  it('switches the permission mode', async () => {
    const ipc = installFakeIpc();
    render(<App />);
    await userEvent.click(await screen.findByTestId('open-folder-button'));
    const switcher = await screen.findByTestId('mode-switcher');
    expect(switcher.dataset.mode).toBe('default');
    const pick = async (mode: string) => {
      await userEvent.click(within(switcher).getByTestId('mode-button'));
      await userEvent.click(within(switcher).getByTestId(`mode-${mode}`));
    };
    await pick('plan');
    expect(ipc.argsOf('set_mode')).toEqual([{ sessionId: 'session-1', mode: 'plan' }]);
    await waitFor(() => expect(switcher.dataset.mode).toBe('plan'));
    expect(screen.queryByTestId('mode-menu')).not.toBeInTheDocument();
    // Bypass asks once per session; declined, the mode stays.
    await userEvent.keyboard('{Shift>}{Tab}{/Shift}');
    await screen.findByTestId('bypass-confirm');
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('bypass-confirm')).not.toBeInTheDocument());
    expect(switcher.dataset.mode).toBe('plan');
    expect(ipc.argsOf('set_mode')).toHaveLength(1);
    await pick('bypassPermissions');
    await userEvent.click(await screen.findByTestId('bypass-confirm-yes'));
    await waitFor(() => expect(switcher.dataset.mode).toBe('bypassPermissions'));
    // Confirmed once, it is not asked again in this session.
    await pick('default');
    await pick('bypassPermissions');
    await waitFor(() => expect(switcher.dataset.mode).toBe('bypassPermissions'));
    expect(screen.queryByTestId('bypass-confirm')).not.toBeInTheDocument();
    expect(ipc.argsOf('set_mode').map((args) => args.mode)).toEqual(['plan', 'bypassPermissions', 'default', 'bypassPermissions']);
  });

  it('offers every mode the session can use, auto only with a classifier model', async () => {
    for (const available of [false, true]) {
      installFakeIpc({ open_session: () => sessionInfo({ auto_mode_available: available }) });
      const { unmount } = render(<App />);
      await userEvent.click(await screen.findByTestId('open-folder-button'));
      const switcher = await screen.findByTestId('mode-switcher');
      await userEvent.click(within(switcher).getByTestId('mode-button'));
      const offered = within(screen.getByTestId('mode-menu'))
        .getAllByRole('menuitemradio')
        .map((item) => item.dataset.testid);
      const expected = ['mode-default', 'mode-acceptEdits', 'mode-plan', 'mode-bypassPermissions', 'mode-dontAsk'];
      expect(offered).toEqual(available ? [...expected, 'mode-auto'] : expected);
      unmount();
    }
  });

  it('switches mode on Shift+Tab as WebKitGTK on X11 reports it (key "Unidentified", code "Tab")', async () => {
    const ipc = installFakeIpc();
    render(<App />);
    await userEvent.click(await screen.findByTestId('open-folder-button'));
    const switcher = await screen.findByTestId('mode-switcher');
    const press = () =>
      act(() => {
        window.dispatchEvent(
          new KeyboardEvent('keydown', { key: 'Unidentified', code: 'Tab', keyCode: 9, shiftKey: true, bubbles: true, cancelable: true }),
        );
      });
    press();
    await waitFor(() => expect(switcher.dataset.mode).toBe('acceptEdits'));
    press();
    await waitFor(() => expect(switcher.dataset.mode).toBe('plan'));
    expect(ipc.argsOf('set_mode').map((args) => args.mode)).toEqual(['acceptEdits', 'plan']);
  });

  it('marks in the sidebar the stored sessions open in another tab that run or wait', async () => {
    const now = Date.now();
    const ipc = installFakeIpc({
      list_sessions: () => [
        { session_id: 'stored-a', title: 'Older work', updated_at_ms: now - 60_000, message_count: 2, pinned: false, archived: false, tags: [], collection_id: null },
      ],
    });
    render(<App />);
    await emit('tandem://open-folder', { path: '/work/first' });
    await screen.findByTestId('folder-name');
    await waitFor(() => expect(shownSession().getAllByTestId('session-item')).toHaveLength(2));
    await userEvent.click(shownSession().getAllByTestId('session-item').find((item) => item.dataset.sessionId === 'stored-a') as HTMLElement);
    await waitFor(() => expect(screen.getAllByTestId('session-tab')).toHaveLength(2));
    ipc.pushOn(1, { type: 'turn_started', prompt: 'go on' });
    await userEvent.keyboard('{Control>}{Tab}{/Control}');
    await waitFor(() => expect(shownSession().getByTestId('folder-name')).toBeInTheDocument());
    const row = () => shownSession().getAllByTestId('session-item').find((item) => item.dataset.sessionId === 'stored-a');
    await waitFor(() => expect(row()).toHaveAttribute('data-mark', 'running'));
    expect(row()).toHaveAttribute('data-open', 'true');
    expect(within(row() as HTMLElement).getByTestId('mark-running')).toBeInTheDocument();
    ipc.pushOn(1, { type: 'approval_requested', request: approvalRequest('r1', 't1') });
    await waitFor(() => expect(row()).toHaveAttribute('data-mark', 'waiting'));
    ipc.pushOn(1, { type: 'approval_resolved', request_id: 'r1' }, { type: 'turn_ended', stop_reason: 'end_turn' });
    await waitFor(() => expect(row()).not.toHaveAttribute('data-mark'));
  });

  it('reloads the sidebar of every tab of a folder when a turn of one of them ends', async () => {
    const ipc = installFakeIpc();
    render(<App />);
    await emit('tandem://open-folder', { path: '/work/same' });
    await screen.findByTestId('folder-name');
    await emit('tandem://new-session');
    await waitFor(() => expect(screen.getAllByTestId('session-tab')).toHaveLength(2));
    await waitFor(() => expect(ipc.argsOf('list_sessions')).toHaveLength(2));
    ipc.pushOn(1, { type: 'turn_started', prompt: 'in the second tab' }, { type: 'turn_ended', stop_reason: 'end_turn' });
    // The second tab's own list and the first tab's both load again.
    await waitFor(() => expect(ipc.argsOf('list_sessions')).toHaveLength(4));
  });

  it('keeps each session’s batches in its own tab', async () => {
    const ipc = installFakeIpc({
      open_session: (args) => sessionInfo({ session_id: String(args.path), folder_name: String(args.path) }),
    });
    render(<App />);
    await emit('tandem://open-folder', { path: 'first' });
    await screen.findByTestId('folder-name');
    await emit('tandem://open-folder', { path: 'second' });
    await waitFor(() => expect(screen.getAllByTestId('session-tab')).toHaveLength(2));
    ipc.pushOn(0, { type: 'notice', message: 'news of the first session' });
    ipc.pushOn(1, { type: 'notice', message: 'news of the second session' });
    const notices = shownSession().getAllByTestId('notice');
    expect(notices).toHaveLength(1);
    expect(notices[0]).toHaveTextContent('news of the second session');
    const first = within(document.querySelector('[data-testid="session"][data-session-id="first"]') as HTMLElement);
    expect(first.getAllByTestId('notice')).toHaveLength(1);
    expect(first.getByTestId('notice')).toHaveTextContent('news of the first session');
  });

  it('runs /clear as a new session in the same tab, replacing the old one', async () => {
    const ipc = installFakeIpc();
    render(<App />);
    await userEvent.click(await screen.findByTestId('open-folder-button'));
    await userEvent.type(await screen.findByTestId('prompt-input'), '/clear{Enter}');
    await waitFor(() => expect(ipc.argsOf('open_session')).toHaveLength(2));
    expect(ipc.argsOf('open_session')[1]).toMatchObject({ path: FOLDER, resume: null, replaces: 'session-1' });
    await waitFor(() => expect(screen.getAllByTestId('session-tab').map((tab) => tab.dataset.sessionId)).toEqual(['session-2']));
  });

  it('keeps events that arrive before open_session resolves', async () => {
    installFakeIpc({
      open_session: (args) => {
        if (isChannelArg(args.onEvent)) {
          new ChannelSender(args.onEvent).send({
            events: [{ session_id: 'session-1', seq: 0, event: { type: 'notice', message: 'Loaded CLAUDE.md' } }],
          });
        }
        return sessionInfo();
      },
    });
    render(<App />);
    await userEvent.click(await screen.findByTestId('open-folder-button'));
    expect(await screen.findByTestId('notice')).toHaveTextContent('Loaded CLAUDE.md');
  });

  it('fetches a batch that never arrived when the next one shows the gap', async () => {
    const ipc = installFakeIpc();
    render(<App />);
    await userEvent.click(await screen.findByTestId('open-folder-button'));
    await screen.findByTestId('folder-name');
    ipc.push({ type: 'turn_started', prompt: 'Touch the files' }, { type: 'text_delta', text: 'First, ' });
    ipc.lose({ type: 'text_delta', text: 'the lost part, ' });
    ipc.push({ type: 'text_delta', text: 'then the answer.' }, { type: 'turn_ended', stop_reason: 'end_turn' });
    await waitFor(() => expect(screen.getByTestId('assistant-text')).toHaveTextContent('First, the lost part, then the answer.'));
    expect(screen.queryByTestId('working')).not.toBeInTheDocument();
    expect(ipc.argsOf('session_events')[0]).toEqual({ sessionId: 'session-1', afterSeq: 1 });
  });

  it('fetches the end of a turn whose last batch never arrived once the channel stays quiet', async () => {
    const ipc = installFakeIpc();
    render(<App />);
    await userEvent.click(await screen.findByTestId('open-folder-button'));
    await screen.findByTestId('folder-name');
    ipc.push({ type: 'turn_started', prompt: 'Touch the files' });
    await screen.findByTestId('working');
    ipc.lose({ type: 'text_delta', text: 'Final answer.' }, { type: 'turn_ended', stop_reason: 'end_turn' });
    await waitFor(() => expect(screen.getByTestId('assistant-text')).toHaveTextContent('Final answer.'), { timeout: 20_000 });
    expect(screen.queryByTestId('working')).not.toBeInTheDocument();
  }, 30_000);
});

function usage(input: number, output: number) {
  return { input_tokens: input, output_tokens: output, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
}

describe('reloading the page', () => {
  it('opens the tabs the window showed, and a folder anew when its session was never stored', async () => {
    let resumable = true;
    const ipc = installFakeIpc({
      open_session: (args) => {
        if (args.resume === 'session-7' && !resumable) throw { code: 'unknown_session', message: 'no stored session session-7' };
        return sessionInfo({ session_id: args.resume ? (args.resume as string) : 'session-8', cwd: String(args.path) });
      },
    });
    sessionStorage.setItem(
      'tandem.open',
      JSON.stringify({ tabs: [{ cwd: '/other/folder', sessionId: 'session-7' }, { cwd: '/third', sessionId: 'session-9' }], active: 'session-7' }),
    );
    const first = render(<App />);
    await waitFor(() => expect(screen.getAllByTestId('session-tab')).toHaveLength(2));
    expect(ipc.argsOf('open_session').map((args) => [args.path, args.resume])).toEqual([
      ['/other/folder', 'session-7'],
      ['/third', 'session-9'],
    ]);
    await waitFor(() => expect(shownSession().getByTestId('folder-name')).toBeInTheDocument());
    expect(document.querySelector('[data-testid="session"][data-shown="true"]')).toHaveAttribute('data-session-id', 'session-7');
    first.unmount();

    resumable = false;
    render(<App />);
    await waitFor(() => expect(screen.getAllByTestId('session-tab').map((tab) => tab.dataset.sessionId)).toEqual(['session-8', 'session-9']));
    expect(ipc.argsOf('open_session').slice(2).map((args) => [args.path, args.resume ?? null])).toEqual([
      ['/other/folder', 'session-7'],
      ['/other/folder', null],
      ['/third', 'session-9'],
    ]);
    expect(screen.queryByTestId('error-banner')).not.toBeInTheDocument();
    await waitFor(() =>
      expect(JSON.parse(sessionStorage.getItem('tandem.open') ?? '{}')).toEqual({
        tabs: [{ cwd: '/other/folder', sessionId: 'session-8' }, { cwd: '/third', sessionId: 'session-9' }],
        active: 'session-9',
      }),
    );
  });

  it('reads what an earlier window kept of its one session', async () => {
    const ipc = installFakeIpc();
    sessionStorage.setItem('tandem.open', JSON.stringify({ cwd: '/other/folder', sessionId: 'session-7' }));
    render(<App />);
    await screen.findByTestId('session');
    expect(ipc.argsOf('open_session').map((args) => [args.path, args.resume])).toEqual([['/other/folder', 'session-7']]);
  });
});

describe('Retry', () => {
  it('rewinds a failed turn’s prompt and sends it again', async () => {
    const ipc = installFakeIpc({
      rewind: () => ({ restored: [], removed: [], conflicts: [], files_rewound: false, messages_removed: 1 }),
    });
    render(<App />);
    await userEvent.click(await screen.findByTestId('open-folder-button'));
    await screen.findByTestId('prompt-input');
    ipc.push(
      { type: 'turn_started', prompt: 'Fix the bug', prompt_id: '4' },
      { type: 'error', message: 'The model stream was cut off' },
      { type: 'turn_ended', stop_reason: 'error' },
    );
    await userEvent.click(await screen.findByTestId('retry-button'));
    await waitFor(() => expect(ipc.argsOf('send_prompt')).toHaveLength(1));
    expect(ipc.argsOf('rewind')).toEqual([{ sessionId: 'session-1', promptId: '4', scope: 'conversation', force: false }]);
    expect(ipc.argsOf('send_prompt')[0]).toEqual({ sessionId: 'session-1', prompt: 'Fix the bug', images: null });
  });

  it('is not offered after a turn that ended normally', async () => {
    const ipc = installFakeIpc();
    render(<App />);
    await userEvent.click(await screen.findByTestId('open-folder-button'));
    await screen.findByTestId('prompt-input');
    ipc.push({ type: 'turn_started', prompt: 'hi', prompt_id: '0' }, { type: 'turn_ended', stop_reason: 'end_turn' });
    expect(screen.queryByTestId('retry-button')).not.toBeInTheDocument();
  });
});

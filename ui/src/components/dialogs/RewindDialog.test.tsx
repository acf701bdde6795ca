// Tests of rewinding from the window: the dialog's choices, its conflicts → Overwrite them flow and
// a prompt it cannot match; and in the whole window, a rewind that drops the prompt rows from the
// rewound one on and puts its text back into the prompt box; `/rewind` opens it for the latest prompt.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { RewindOutcome, RewindPoint, RewindScope } from '../../generated/protocol';
import { installFakeIpc } from '../../test/fakeIpc';
import { App } from '../app/App';
import { RewindDialog } from './RewindDialog';

const points: RewindPoint[] = [
  { prompt_id: '0', prompt: 'Rename serve to start', files_changed_since: ['src/lib.rs', 'src/main.rs'] },
  { prompt_id: '4', prompt: 'Now add a test', files_changed_since: ['src/main.rs'] },
];
const done: RewindOutcome = { restored: ['src/main.rs'], removed: [], conflicts: [], files_rewound: true, messages_removed: 2 };

function renderDialog(rewind: (id: string, scope: RewindScope, force: boolean) => Promise<RewindOutcome>, ordinal = 1, text = 'Now add a test') {
  const onRewound = vi.fn();
  const onCancel = vi.fn();
  const rewindMock = vi.fn(rewind);
  render(
    <RewindDialog ordinal={ordinal} text={text} loadPoints={() => Promise.resolve(points)} rewind={rewindMock} onRewound={onRewound} onCancel={onCancel} />,
  );
  return { onRewound, onCancel, rewind: rewindMock };
}

describe('RewindDialog', () => {
  it('shows the prompt and the files it restores; files and conversation is the default', async () => {
    const { rewind, onRewound } = renderDialog(() => Promise.resolve(done));
    const both = await screen.findByTestId('rewind-both');
    expect(screen.getByTestId('rewind-prompt')).toHaveTextContent('Now add a test');
    expect(screen.getAllByTestId('rewind-file').map((item) => item.textContent)).toEqual(['src/main.rs']);
    // Focus moves in an effect after the buttons render: wait for it rather than assume it has run.
    await waitFor(() => expect(both).toHaveFocus());
    expect(screen.getByTestId('rewind-files')).toBeInTheDocument();
    expect(screen.getByTestId('rewind-conversation')).toBeInTheDocument();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(onRewound).toHaveBeenCalledWith(done, 'both'));
    expect(rewind).toHaveBeenCalledWith('4', 'both', false);
  });

  it('forks a new session before the prompt, and shows why a fork failed', async () => {
    const fork = vi.fn((id: string) => (id === '4' ? Promise.reject(Object.assign(new Error('the session was not forked: disk full'), { code: 'store' })) : Promise.resolve()));
    const rewind = vi.fn(() => Promise.resolve(done));
    render(
      <RewindDialog ordinal={1} text="Now add a test" loadPoints={() => Promise.resolve(points)} rewind={rewind} onRewound={vi.fn()} fork={fork} onCancel={vi.fn()} />,
    );
    await userEvent.click(await screen.findByTestId('rewind-fork'));
    expect(fork).toHaveBeenCalledWith('4');
    expect(await screen.findByRole('alert')).toHaveTextContent('disk full');
    expect(rewind).not.toHaveBeenCalled();
    expect(screen.getByTestId('rewind-fork')).toBeEnabled();
  });

  it('rewinds the files only, or the conversation only, by the prompt’s id', async () => {
    const { rewind } = renderDialog(() => Promise.resolve(done), 0, 'Rename serve to start');
    await userEvent.click(await screen.findByTestId('rewind-conversation'));
    expect(rewind).toHaveBeenLastCalledWith('0', 'conversation', false);
  });

  it('lists files changed outside Tandem, and overwrites them only when asked', async () => {
    const { rewind, onRewound } = renderDialog((_id, _scope, force) =>
      Promise.resolve(force ? done : { restored: [], removed: [], conflicts: ['src/main.rs'], files_rewound: false, messages_removed: 0 }),
    );
    await userEvent.click(await screen.findByTestId('rewind-files'));
    const conflicts = await screen.findByTestId('rewind-conflicts');
    expect(within(conflicts).getByTestId('rewind-conflict')).toHaveTextContent('src/main.rs');
    expect(onRewound).not.toHaveBeenCalled();
    expect(screen.queryByTestId('rewind-both')).not.toBeInTheDocument();
    await userEvent.click(screen.getByTestId('rewind-force'));
    await waitFor(() => expect(onRewound).toHaveBeenCalledWith(done, 'files'));
    expect(rewind.mock.calls).toEqual([
      ['4', 'files', false],
      ['4', 'files', true],
    ]);
  });

  it('cancels from the conflicts, and with Esc', async () => {
    const { onCancel } = renderDialog(() =>
      Promise.resolve({ restored: [], removed: [], conflicts: ['src/main.rs'], files_rewound: false, messages_removed: 0 }),
    );
    await userEvent.click(await screen.findByTestId('rewind-both'));
    await screen.findByTestId('rewind-conflicts');
    await userEvent.click(screen.getByTestId('rewind-cancel'));
    await userEvent.keyboard('{Escape}');
    expect(onCancel).toHaveBeenCalledTimes(2);
  });

  it('shows the backend’s error and stays open', async () => {
    const { onRewound } = renderDialog(() => Promise.reject(new Error('prompt 4 is not a prompt of this session')));
    await userEvent.click(await screen.findByTestId('rewind-both'));
    expect(await screen.findByText('prompt 4 is not a prompt of this session')).toBeInTheDocument();
    expect(onRewound).not.toHaveBeenCalled();
  });

  it('offers no rewind when no point has the row’s text', async () => {
    const { rewind } = renderDialog(() => Promise.resolve(done), 2, 'A prompt the conversation lost');
    expect(await screen.findByTestId('rewind-unmatched')).toBeInTheDocument();
    expect(screen.queryByTestId('rewind-both')).not.toBeInTheDocument();
    expect(rewind).not.toHaveBeenCalled();
  });
});

describe('rewinding in the window', () => {
  it('drops the rows from the prompt on, refills the prompt box and says what happened', async () => {
    let messages = 4;
    const ipc = installFakeIpc({
      list_sessions: () => [{ session_id: 'session-1', title: 'first', updated_at_ms: Date.now(), message_count: messages, pinned: false, archived: false, tags: [], collection_id: null }],
      rewind_points: () => [
        { prompt_id: '0', prompt: 'first', files_changed_since: [] },
        { prompt_id: '2', prompt: 'second', files_changed_since: ['a.rs'] },
      ],
      rewind: () => {
        messages = 2;
        return { restored: ['a.rs'], removed: [], conflicts: [], files_rewound: true, messages_removed: 2 };
      },
    });
    render(<App />);
    await userEvent.click(await screen.findByTestId('open-folder-button'));
    await screen.findByTestId('folder-name');
    ipc.push({ type: 'turn_started', prompt: 'first' }, { type: 'text_delta', text: 'one' }, { type: 'turn_ended', stop_reason: 'end_turn' });
    ipc.push({ type: 'turn_started', prompt: 'second' });
    expect(screen.queryByTestId('rewind-button')).not.toBeInTheDocument();
    ipc.push({ type: 'text_delta', text: 'two' }, { type: 'turn_ended', stop_reason: 'end_turn' });

    const buttons = await screen.findAllByTestId('rewind-button');
    expect(buttons).toHaveLength(2);
    await userEvent.click(buttons[1] as HTMLElement);
    await userEvent.click(await screen.findByTestId('rewind-both'));
    await waitFor(() => expect(screen.queryByTestId('rewind-dialog')).not.toBeInTheDocument());

    expect(ipc.argsOf('rewind')).toEqual([{ sessionId: 'session-1', promptId: '2', scope: 'both', force: false }]);
    expect(screen.getAllByTestId('user-prompt').map((row) => row.querySelector('.user-prompt-text')?.textContent)).toEqual(['first']);
    expect(screen.getByTestId('prompt-input')).toHaveValue('second');
    expect(screen.getByTestId('rewind-notice')).toHaveTextContent(
      'Files and conversation rewound: 1 file restored, 2 messages removed from the conversation.',
    );
    // The sidebar counts the messages the conversation keeps.
    await waitFor(() => expect(screen.getByTestId('session-item')).toHaveTextContent('2 messages'));
  });
});

describe('/rewind', () => {
  it('opens the dialog for the latest prompt, and says so when there is none', async () => {
    const ipc = installFakeIpc({
      list_sessions: () => [],
      rewind_points: () => [
        { prompt_id: '0', prompt: 'first', files_changed_since: [] },
        { prompt_id: '2', prompt: 'second', files_changed_since: ['a.rs'] },
      ],
    });
    render(<App />);
    await userEvent.click(await screen.findByTestId('open-folder-button'));
    await screen.findByTestId('folder-name');
    const input = screen.getByTestId('prompt-input');
    await userEvent.type(input, '/rewind{Escape}{Enter}');
    expect(await screen.findByTestId('rewind-notice')).toHaveTextContent('There is no prompt to rewind to yet.');

    ipc.push({ type: 'turn_started', prompt: 'first' }, { type: 'turn_ended', stop_reason: 'end_turn' });
    ipc.push({ type: 'turn_started', prompt: 'second' }, { type: 'turn_ended', stop_reason: 'end_turn' });
    await userEvent.type(input, '/rewind{Escape}{Enter}');
    expect(await screen.findByTestId('rewind-prompt')).toHaveTextContent('second');
    expect(ipc.argsOf('send_prompt')).toHaveLength(0);
  });
});

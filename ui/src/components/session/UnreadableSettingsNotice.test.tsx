// The notice for a settings file that could not be read: shown when the engine reports one, the file shown on
// request, the person's acceptance sent and then shown on one quiet line, and the notice back when the engine
// reports the file changed (the acceptance no longer holds) or gone when it is fixed.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { UnreadableSettingsFile } from '../../generated/protocol';
import { FOLDER, installFakeIpc } from '../../test/fakeIpc';
import { App } from '../app/App';

const FILE = `${FOLDER}/.claude/settings.local.json`;
const BROKEN: UnreadableSettingsFile = {
  file: FILE,
  problem: 'is not valid JSON: EOF while parsing a list at line 1 column 40',
  accepted: false,
};

function brokenFile() {
  return installFakeIpc(
    {
      unreadable_settings_text: () => '{"permissions": {"deny": ["Bash(rm *)",',
      accept_unreadable_settings: () => [{ ...BROKEN, accepted: true }],
    },
    { folder: FOLDER },
  );
}

describe('UnreadableSettingsNotice', () => {
  it('names the file and its problem, shows the file, and accepts running without it', async () => {
    const ipc = brokenFile();
    render(<App />);
    await screen.findByTestId('folder-name');
    expect(screen.queryByTestId('unreadable-settings')).not.toBeInTheDocument();
    ipc.push({ type: 'unreadable_settings', files: [BROKEN] });

    const row = await screen.findByTestId('unreadable-settings-file');
    expect(row).toHaveAttribute('data-accepted', 'false');
    expect(row).toHaveTextContent('.claude/settings.local.json');
    expect(row).toHaveTextContent('line 1 column 40');
    expect(row).toHaveTextContent('every tool call asks');

    await userEvent.click(within(row).getByTestId('unreadable-show'));
    expect(await screen.findByTestId('unreadable-text')).toHaveTextContent('Bash(rm *)');
    expect(ipc.argsOf('unreadable_settings_text')).toEqual([{ sessionId: 'session-1', file: FILE }]);
    await userEvent.click(within(row).getByRole('button', { name: 'Hide file' }));
    expect(screen.queryByTestId('unreadable-text')).not.toBeInTheDocument();

    await userEvent.click(within(row).getByRole('button', { name: 'Accept and continue without this file' }));
    expect(ipc.argsOf('accept_unreadable_settings')).toEqual([{ sessionId: 'session-1', file: FILE }]);
    await waitFor(() => expect(screen.getByTestId('unreadable-settings-file')).toHaveAttribute('data-accepted', 'true'));
    expect(screen.queryByTestId('unreadable-accept')).not.toBeInTheDocument();

    // The engine reports the file changed on disk: the acceptance no longer holds.
    ipc.push({ type: 'unreadable_settings', files: [BROKEN] });
    await waitFor(() => expect(screen.getByTestId('unreadable-settings-file')).toHaveAttribute('data-accepted', 'false'));
    expect(screen.getByTestId('unreadable-accept')).toBeInTheDocument();

    // Fixed: the notice goes.
    ipc.push({ type: 'unreadable_settings', files: [] });
    await waitFor(() => expect(screen.queryByTestId('unreadable-settings')).not.toBeInTheDocument());
  });

  it('says why an acceptance failed and keeps asking', async () => {
    const ipc = installFakeIpc(
      {
        accept_unreadable_settings: () => {
          throw { code: 'settings', message: `${FILE} is not a settings file that could not be read` };
        },
      },
      { folder: FOLDER },
    );
    render(<App />);
    await screen.findByTestId('folder-name');
    ipc.push({ type: 'unreadable_settings', files: [BROKEN] });
    await userEvent.click(await screen.findByTestId('unreadable-accept'));
    expect(await screen.findByText(/Not accepted: .* is not a settings file that could not be read/)).toBeInTheDocument();
    expect(screen.getByTestId('unreadable-settings-file')).toHaveAttribute('data-accepted', 'false');
  });
});

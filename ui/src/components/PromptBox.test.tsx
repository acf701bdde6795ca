// Tests of the prompt box: Enter sends, Shift+Enter adds a line, disabled while a turn runs,
// nothing blank is sent, the text survives a failed send, and the slash-command menu.
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { installFakeIpc } from '../test/fakeIpc';
import { App } from './App';
import { PromptBox } from './PromptBox';

describe('PromptBox', () => {
  it('sends on Enter and clears', async () => {
    const onSend = vi.fn(() => Promise.resolve(true));
    render(<PromptBox disabled={false} onSend={onSend} />);
    await userEvent.type(screen.getByTestId('prompt-input'), 'explain this{Enter}');
    expect(onSend).toHaveBeenCalledWith('explain this');
    expect(screen.getByTestId('prompt-input')).toHaveValue('');
  });

  it('keeps an unsent draft (typed or given back by a rewind) across a restart, and forgets it once sent', async () => {
    const onSend = vi.fn(() => Promise.resolve(true));
    const first = render(<PromptBox disabled={false} onSend={onSend} draftKey="s-draft" />);
    await userEvent.type(screen.getByTestId('prompt-input'), 'half a thought');
    first.unmount();
    const second = render(<PromptBox disabled={false} onSend={onSend} draftKey="s-draft" />);
    expect(screen.getByTestId('prompt-input')).toHaveValue('half a thought');
    await userEvent.type(screen.getByTestId('prompt-input'), '{Enter}');
    expect(onSend).toHaveBeenCalledWith('half a thought');
    second.unmount();
    const third = render(<PromptBox disabled={false} onSend={onSend} draftKey="s-draft" />);
    expect(screen.getByTestId('prompt-input')).toHaveValue('');
    third.unmount();

    const rewound = render(<PromptBox disabled={false} onSend={onSend} draftKey="s-rewound" initialText="Rename serve to start" />);
    rewound.unmount();
    render(<PromptBox disabled={false} onSend={onSend} draftKey="s-rewound" />);
    expect(screen.getByTestId('prompt-input')).toHaveValue('Rename serve to start');
  });

  it('adds a line on Shift+Enter', async () => {
    const onSend = vi.fn(() => Promise.resolve(true));
    render(<PromptBox disabled={false} onSend={onSend} />);
    await userEvent.type(screen.getByTestId('prompt-input'), 'one{Shift>}{Enter}{/Shift}two');
    expect(screen.getByTestId('prompt-input')).toHaveValue('one\ntwo');
    expect(onSend).not.toHaveBeenCalled();
    await userEvent.click(screen.getByTestId('send-button'));
    expect(onSend).toHaveBeenCalledWith('one\ntwo');
  });

  it('does not send blank text', async () => {
    const onSend = vi.fn(() => Promise.resolve(true));
    render(<PromptBox disabled={false} onSend={onSend} />);
    expect(screen.getByTestId('send-button')).toBeDisabled();
    await userEvent.type(screen.getByTestId('prompt-input'), '   {Enter}');
    expect(onSend).not.toHaveBeenCalled();
  });

  it('is disabled while a turn runs', () => {
    render(<PromptBox disabled onSend={() => Promise.resolve(true)} />);
    expect(screen.getByTestId('prompt-input')).toBeDisabled();
    expect(screen.getByTestId('send-button')).toBeDisabled();
  });

  it('keeps the text when sending fails', async () => {
    render(<PromptBox disabled={false} onSend={() => Promise.resolve(false)} />);
    await userEvent.type(screen.getByTestId('prompt-input'), 'keep me{Enter}');
    expect(screen.getByTestId('prompt-input')).toHaveValue('keep me');
  });
});

describe('slash commands', () => {
  it('lists the window’s commands and the skills after /, completes with Tab and runs /changes itself', async () => {
    const ipc = installFakeIpc({
      skills: () => [{ name: 'release-notes', description: 'Write the release notes' }],
      session_changes: () => [],
    });
    render(<App />);
    await userEvent.click(await screen.findByTestId('open-folder-button'));
    const input = await screen.findByTestId('prompt-input');
    await userEvent.type(input, '/');
    await waitFor(() => expect(screen.getAllByTestId('slash-item').map((item) => item.textContent)).toContain('/release-notesWrite the release notes'));
    await userEvent.type(input, 're');
    expect(screen.getAllByTestId('slash-item')).toHaveLength(1);
    await userEvent.keyboard('{Tab}');
    expect(input).toHaveValue('/release-notes ');
    await userEvent.type(input, 'v2.1{Enter}');
    expect(ipc.argsOf('send_prompt')).toEqual([{ sessionId: 'session-1', prompt: '/release-notes v2.1' }]);
  });

  it('runs the window’s own commands without sending them', async () => {
    const ipc = installFakeIpc({ session_changes: () => [] });
    render(<App />);
    await userEvent.click(await screen.findByTestId('open-folder-button'));
    const input = await screen.findByTestId('prompt-input');
    await userEvent.type(input, '/chan');
    await userEvent.keyboard('{Enter}');
    expect(input).toHaveValue('/changes ');
    await userEvent.keyboard('{Enter}');
    expect(await screen.findByTestId('changes-view')).toBeInTheDocument();
    expect(ipc.argsOf('send_prompt')).toHaveLength(0);
  });
});

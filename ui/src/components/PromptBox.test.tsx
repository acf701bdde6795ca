// Tests of the prompt box: Enter sends, Shift+Enter adds a line, disabled while a turn runs,
// nothing blank is sent, and the text survives a failed send.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { PromptBox } from './PromptBox';

describe('PromptBox', () => {
  it('sends on Enter and clears', async () => {
    const onSend = vi.fn(() => Promise.resolve(true));
    render(<PromptBox disabled={false} onSend={onSend} />);
    await userEvent.type(screen.getByTestId('prompt-input'), 'explain this{Enter}');
    expect(onSend).toHaveBeenCalledWith('explain this');
    expect(screen.getByTestId('prompt-input')).toHaveValue('');
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

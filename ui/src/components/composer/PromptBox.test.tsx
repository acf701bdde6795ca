// Tests of the prompt box: Enter sends, Shift+Enter adds a line, disabled while a turn runs,
// nothing blank is sent, the text survives a failed send, the slash-command menu (with sources and
// argument hints), the `@` file completion and images pasted or dropped in (thumbnails, removal, sending).
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { installFakeIpc } from '../../test/fakeIpc';
import { App } from '../app/App';
import { PromptBox, type SlashCommand } from './PromptBox';
import type { MentionCompletion } from '../../generated/protocol';
import { completeMention, mentionAt } from '../../state/promptMenu';

describe('PromptBox', () => {
  it('sends on Enter and clears', async () => {
    const onSend = vi.fn(() => Promise.resolve(true));
    render(<PromptBox disabled={false} onSend={onSend} />);
    await userEvent.type(screen.getByTestId('prompt-input'), 'explain this{Enter}');
    expect(onSend).toHaveBeenCalledWith('explain this', []);
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
    expect(onSend).toHaveBeenCalledWith('half a thought', []);
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
    expect(onSend).toHaveBeenCalledWith('one\ntwo', []);
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
      slash_commands: () => [{ name: 'release-notes', description: 'Write the release notes', argument_hint: null, source: 'skill' }],
      session_changes: () => [],
    });
    render(<App />);
    await userEvent.click(await screen.findByTestId('open-folder-button'));
    const input = await screen.findByTestId('prompt-input');
    await userEvent.type(input, '/');
    await waitFor(() => expect(screen.getAllByTestId('slash-item').map((item) => item.textContent)).toContain('/release-notesWrite the release notesskill'));
    await userEvent.type(input, 'rel');
    expect(screen.getAllByTestId('slash-item')).toHaveLength(1);
    await userEvent.keyboard('{Tab}');
    expect(input).toHaveValue('/release-notes ');
    await userEvent.type(input, 'v2.1{Enter}');
    expect(ipc.argsOf('send_prompt')).toEqual([{ sessionId: 'session-1', prompt: '/release-notes v2.1', images: null }]);
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

const COMMANDS: SlashCommand[] = [
  { name: 'compact', description: 'Summarise now', argument_hint: '[focus]', source: 'builtin' },
  { name: 'review', description: 'Review a file', argument_hint: '<file> [focus]', source: 'project' },
  { name: 'git:commit', description: 'Commit the staged work', argument_hint: null, source: 'user' },
  { name: 'mcp__docs__search', description: 'Search the docs', argument_hint: null, source: 'mcp_prompt' },
];

describe('slash command menu', () => {
  it('shows each command with its argument hint and source, and finds namespaced names by a part', async () => {
    render(<PromptBox disabled={false} onSend={() => Promise.resolve(true)} commands={COMMANDS} />);
    const input = screen.getByTestId('prompt-input');
    await userEvent.type(input, '/');
    const rows = screen.getAllByTestId('slash-item').map((item) => item.textContent);
    expect(rows).toEqual([
      '/compact[focus]Summarise nowbuilt-in',
      '/review<file> [focus]Review a fileproject',
      '/git:commitCommit the staged workuser',
      '/mcp__docs__searchSearch the docsMCP',
    ]);
    await userEvent.type(input, 'commit');
    expect(screen.getAllByTestId('slash-item').map((item) => item.textContent)).toEqual(['/git:commitCommit the staged workuser']);
    await userEvent.keyboard('{Enter}');
    expect(input).toHaveValue('/git:commit ');
  });

  it('moves with the arrows and closes on Esc', async () => {
    const onSend = vi.fn(() => Promise.resolve(true));
    render(<PromptBox disabled={false} onSend={onSend} commands={COMMANDS} />);
    const input = screen.getByTestId('prompt-input');
    await userEvent.type(input, '/');
    await userEvent.keyboard('{ArrowDown}{ArrowDown}{ArrowUp}');
    expect(screen.getAllByTestId('slash-item')[1]).toHaveAttribute('aria-selected', 'true');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByTestId('slash-menu')).not.toBeInTheDocument();
  });
});

describe('@ mentions', () => {
  const files = ['README.md', 'src/main.rs', 'src/lib.rs', 'docs/design notes.md'];
  const completeMentions = vi.fn((query: string): Promise<MentionCompletion[]> =>
    Promise.resolve(
      files
        .filter((file) => file.toLowerCase().includes(query.toLowerCase()))
        .map((file) => ({ text: file.includes(' ') ? `"${file}"` : file, kind: 'file' as const, detail: null })),
    ),
  );

  it('offers the folder’s files after @ and completes the one chosen', async () => {
    const onSend = vi.fn(() => Promise.resolve(true));
    render(<PromptBox disabled={false} onSend={onSend} completeMentions={completeMentions} />);
    const input = screen.getByTestId('prompt-input');
    await userEvent.type(input, 'explain @src');
    await waitFor(() => expect(screen.getAllByTestId('mention-item').map((item) => item.textContent)).toEqual(['@src/main.rs', '@src/lib.rs']));
    expect(completeMentions).toHaveBeenLastCalledWith('src');
    await userEvent.keyboard('{ArrowDown}{Tab}');
    expect(input).toHaveValue('explain @src/lib.rs ');
    expect(screen.queryByTestId('mention-menu')).not.toBeInTheDocument();
    await userEvent.type(input, 'please{Enter}');
    expect(onSend).toHaveBeenCalledWith('explain @src/lib.rs please', []);
  });

  it('quotes a path with spaces, and Esc closes the list without sending', async () => {
    const onSend = vi.fn(() => Promise.resolve(true));
    render(<PromptBox disabled={false} onSend={onSend} completeMentions={completeMentions} />);
    const input = screen.getByTestId('prompt-input');
    await userEvent.type(input, 'see @design');
    await screen.findByTestId('mention-menu');
    await userEvent.keyboard('{Enter}');
    expect(input).toHaveValue('see @"docs/design notes.md" ');
    await userEvent.type(input, 'and @READ');
    await screen.findByTestId('mention-menu');
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByTestId('mention-menu')).not.toBeInTheDocument();
    expect(onSend).not.toHaveBeenCalled();
  });

  it('finds the mention at the caret and replaces only it', () => {
    const table: [string, number, { start: number; query: string } | null][] = [
      ['@', 1, { start: 0, query: '' }],
      ['look at @src/ma', 15, { start: 8, query: 'src/ma' }],
      ['(@"my no', 8, { start: 1, query: 'my no' }],
      ['mail me@example', 15, null],
      ['@done then text', 15, null],
    ];
    for (const [text, caret, want] of table) expect(mentionAt(text, caret)).toEqual(want);
    const at = mentionAt('a @sr b', 5);
    expect(at).toEqual({ start: 2, query: 'sr' });
    if (at) expect(completeMention('a @sr b', at, 5, 'src/x.rs')).toEqual({ text: 'a @src/x.rs b', caret: 11 });
    if (at) expect(completeMention('a @sr b', at, 5, 'docs:')).toEqual({ text: 'a @docs: b', caret: 8 });
  });
});

describe('images', () => {
  // The smallest PNG: one transparent pixel.
  const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
  const pixelFile = (name: string, type = 'image/png') =>
    new File([Uint8Array.from(atob(PIXEL), (c) => c.charCodeAt(0))], name, { type });

  it('shows pasted and dropped images as thumbnails, removes one, and sends the rest with the text', async () => {
    const onSend = vi.fn(() => Promise.resolve(true));
    render(<PromptBox disabled={false} onSend={onSend} />);
    const input = screen.getByTestId('prompt-input');
    fireEvent.paste(input, { clipboardData: { files: [pixelFile('first.png')], items: [], types: ['Files'] } });
    await waitFor(() => expect(screen.getAllByTestId('attachment')).toHaveLength(1));
    const form = input.closest('form');
    if (!form) throw new Error('no form');
    fireEvent.drop(form, { dataTransfer: { files: [pixelFile('second.png'), pixelFile('notes.txt', 'text/plain')], types: ['Files'] } });
    await waitFor(() => expect(screen.getAllByTestId('attachment')).toHaveLength(2));
    expect(screen.getByTestId('attachment-problem')).toHaveTextContent('notes.txt is not an image');
    expect(screen.getAllByTestId('attachment').map((each) => each.getAttribute('title'))).toEqual(['first.png', 'second.png']);

    await userEvent.click(screen.getByRole('button', { name: 'Remove first.png' }));
    expect(screen.getAllByTestId('attachment')).toHaveLength(1);
    expect(screen.queryByTestId('attachment-problem')).toBeNull();
    await userEvent.type(input, 'what is wrong here?{Enter}');
    expect(onSend).toHaveBeenCalledWith('what is wrong here?', [{ media_type: 'image/png', data: PIXEL }]);
    expect(screen.queryByTestId('attachment')).toBeNull();
  });

  it('sends images without text, and keeps them when the send fails', async () => {
    const onSend = vi.fn(() => Promise.resolve(false));
    render(<PromptBox disabled={false} onSend={onSend} />);
    expect(screen.getByTestId('send-button')).toBeDisabled();
    fireEvent.paste(screen.getByTestId('prompt-input'), { clipboardData: { files: [pixelFile('only.png')], items: [], types: ['Files'] } });
    await waitFor(() => expect(screen.getByTestId('send-button')).toBeEnabled());
    await userEvent.click(screen.getByTestId('send-button'));
    expect(onSend).toHaveBeenCalledWith('', [{ media_type: 'image/png', data: PIXEL }]);
    expect(screen.getAllByTestId('attachment')).toHaveLength(1);
  });

  it('starts with the images given back to it', () => {
    render(<PromptBox disabled={false} onSend={vi.fn()} initialImages={[{ media_type: 'image/png', data: PIXEL }]} />);
    expect(screen.getAllByTestId('attachment')).toHaveLength(1);
  });
});

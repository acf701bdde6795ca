// The prompt box: a textarea that grows with its text; Enter sends, Shift+Enter starts a new line.
// While a turn runs the person can still type, and Enter hands the prompt over to be queued; the text
// is kept if sending fails. Typing `/` at the start lists the
// slash commands (the window's own and the session's skills) matching what follows; ↑/↓ move,
// Tab or Enter completes, Esc closes the list.
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { loadDraft, saveDraft } from '../state/drafts';
import { Icon } from './Icon';

/** A command the box offers after `/`. */
export type SlashCommand = { name: string; description: string };

export type PromptBoxProps = {
  /** True when nothing can be sent (no session is open). */
  disabled: boolean;
  /** True while a turn runs: typing goes on, and what is sent is queued by the owner. */
  busy?: boolean;
  /** Resolves to whether the prompt was accepted (the box is cleared then). */
  onSend: (prompt: string) => Promise<boolean>;
  /** The text the box starts with (e.g. a rewound prompt to edit and resend); remount with a new key to set it again. */
  initialText?: string;
  commands?: readonly SlashCommand[];
  /** Where the unsent text is kept across restarts (the session id); without it the text lives with the box. */
  draftKey?: string;
};

const MAX_ROWS = 12;

export function PromptBox({ disabled, busy = false, onSend, initialText = '', commands = [], draftKey }: PromptBoxProps) {
  const [text, setTextState] = useState(() => initialText || (draftKey ? loadDraft(draftKey) : ''));
  const setText = (next: string) => {
    setTextState(next);
    if (draftKey) saveDraft(draftKey, next);
  };
  // Text given by the owner (a rewound prompt) is a draft from the start.
  useEffect(() => {
    if (draftKey && initialText) saveDraft(draftKey, initialText);
  }, [draftKey, initialText]);
  const [highlighted, setHighlighted] = useState(0);
  const [menuClosed, setMenuClosed] = useState(false);
  const typed = /^\/(\S*)$/.exec(text);
  const matches = typed && !menuClosed ? commands.filter((command) => command.name.startsWith(typed[1] ?? '')) : [];
  const showMenu = matches.length > 0 && !(matches.length === 1 && matches[0]?.name === typed?.[1]);
  const [sending, setSending] = useState(false);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const blocked = disabled || sending;
  const canSend = !blocked && text.trim().length > 0;

  // A disabled textarea loses focus: give it back when the turn ends.
  useEffect(() => {
    const input = inputRef.current;
    if (blocked || !input) return;
    input.focus();
    input.setSelectionRange(input.value.length, input.value.length);
  }, [blocked]);

  const send = async () => {
    if (!canSend) return;
    setSending(true);
    const accepted = await onSend(text.trim());
    setSending(false);
    if (accepted) setText('');
    inputRef.current?.focus();
  };

  const complete = (command: SlashCommand) => {
    setText(`/${command.name} `);
    setHighlighted(0);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (showMenu) {
      const count = matches.length;
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        setHighlighted((previous) => (previous + (event.key === 'ArrowDown' ? 1 : count - 1)) % count);
        return;
      }
      if (event.key === 'Tab' || (event.key === 'Enter' && !event.shiftKey)) {
        event.preventDefault();
        const chosen = matches[Math.min(highlighted, count - 1)];
        if (chosen) complete(chosen);
        return;
      }
      if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        setMenuClosed(true);
        return;
      }
    }
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    void send();
  };

  const rows = Math.min(MAX_ROWS, Math.max(1, text.split('\n').length));
  return (
    <form
      className={`prompt-box${blocked ? ' is-disabled' : ''}`}
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      {showMenu && (
        <ul className="slash-menu" role="listbox" aria-label="Commands" data-testid="slash-menu">
          {matches.map((command, index) => (
            <li
              key={command.name}
              role="option"
              aria-selected={index === Math.min(highlighted, matches.length - 1)}
              className="slash-item"
              data-testid="slash-item"
              onMouseDown={(event) => {
                event.preventDefault();
                complete(command);
              }}
            >
              <span className="slash-name">/{command.name}</span>
              <span className="dim slash-description">{command.description}</span>
            </li>
          ))}
        </ul>
      )}
      <span className="prompt-mark" aria-hidden="true">
        ›
      </span>
      <textarea
        ref={inputRef}
        className="prompt-input"
        data-testid="prompt-input"
        aria-label="Prompt"
        rows={rows}
        value={text}
        disabled={blocked}
        autoFocus
        spellCheck={false}
        placeholder={busy ? 'Working… (Esc to stop; what you send now waits for the turn to end)' : 'Ask for a change, a fix, an explanation…'}
        onChange={(event) => {
          setText(event.target.value);
          setMenuClosed(false);
          setHighlighted(0);
        }}
        onKeyDown={onKeyDown}
      />
      <button type="submit" className="button button-primary send-button" data-testid="send-button" disabled={!canSend}>
        Send
        <kbd aria-label="Enter"><Icon name="enter" /></kbd>
      </button>
    </form>
  );
}

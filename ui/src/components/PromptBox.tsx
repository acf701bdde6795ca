// The prompt box: a textarea that grows with its text; Enter sends, Shift+Enter starts a new line.
// Disabled while a turn runs; the text is kept if sending fails.
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';

export type PromptBoxProps = {
  /** True while a turn runs (or no session is open). */
  disabled: boolean;
  /** Resolves to whether the prompt was accepted (the box is cleared then). */
  onSend: (prompt: string) => Promise<boolean>;
  /** The text the box starts with (e.g. a rewound prompt to edit and resend); remount with a new key to set it again. */
  initialText?: string;
};

const MAX_ROWS = 12;

export function PromptBox({ disabled, onSend, initialText = '' }: PromptBoxProps) {
  const [text, setText] = useState(initialText);
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

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
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
        placeholder={disabled ? 'Working… (Esc to stop)' : 'Ask for a change, a fix, an explanation…'}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={onKeyDown}
      />
      <button type="submit" className="button button-primary send-button" data-testid="send-button" disabled={!canSend}>
        Send
        <kbd>↵</kbd>
      </button>
    </form>
  );
}

// The prompt box: a textarea that grows with its text; Enter sends, Shift+Enter starts a new line.
// While a turn runs the person can still type, and Enter hands the prompt over to be queued; the text
// is kept if sending fails. Typing `/` at the start lists the slash commands (the window's own, the
// engine's, custom commands, skills, MCP prompts) with their source and argument hint; typing `@`
// lists the folder's files (and MCP servers) matching what follows. ↑/↓ move, Tab or Enter completes,
// Esc closes the list. Images pasted or dropped into the box are attached to the prompt, shown as removable
// thumbnails above the text until it is sent; a prompt of images alone may be sent.
import { useEffect, useLayoutEffect, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import type { MentionCompletion, PromptImage, SlashCommand } from '../../generated/protocol';
import { useImageAttachments } from '../../hooks/useImageAttachments';
import { filesOf, imagesOf } from '../../state/attachments';
import { loadDraft, saveDraft } from '../../state/drafts';
import { completeMention, matchCommands, mentionAt, SOURCE_LABEL } from '../../state/promptMenu';
import { Icon } from '../common/Icon';
import { ImageStrip } from './ImageStrip';

export type { SlashCommand };

type MenuItem = { kind: 'command'; command: SlashCommand } | { kind: 'mention'; completion: MentionCompletion };

export type PromptBoxProps = {
  /** True when nothing can be sent (no session is open). */
  disabled: boolean;
  /** True while a turn runs: typing goes on, and what is sent is queued by the owner. */
  busy?: boolean;
  /** Resolves to whether the prompt (its text and attached images) was accepted (the box is cleared then). */
  onSend: (prompt: string, images: PromptImage[]) => Promise<boolean>;
  /** The text the box starts with (e.g. a rewound prompt to edit and resend); remount with a new key to set it again. */
  initialText?: string;
  /** The images attached when the box starts (a queued prompt taken back). */
  initialImages?: readonly PromptImage[];
  commands?: readonly SlashCommand[];
  /** What an `@query` may complete to (the folder's files); without it `@` offers nothing. */
  completeMentions?: (query: string) => Promise<MentionCompletion[]>;
  /** Where the unsent text is kept across restarts (the session id); without it the text lives with the box. */
  draftKey?: string;
};

const MAX_ROWS = 12;

export function PromptBox({
  disabled,
  busy = false,
  onSend,
  initialText = '',
  initialImages,
  commands = [],
  completeMentions,
  draftKey,
}: PromptBoxProps) {
  const attachments = useImageAttachments(initialImages);
  const [dropping, setDropping] = useState(false);
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
  const [caret, setCaret] = useState(() => text.length);
  const typed = /^\/(\S*)$/.exec(text);
  const commandMatches = typed ? matchCommands(commands, typed[1] ?? '') : [];
  const mention = typed ? null : mentionAt(text, caret);
  const mentionQuery = mention?.query ?? null;
  // The completions of the mention being typed; answers to an older query are dropped.
  const [mentionFound, setMentionFound] = useState<{ query: string; items: MentionCompletion[] } | null>(null);
  useEffect(() => {
    if (mentionQuery === null || !completeMentions) return;
    let current = true;
    completeMentions(mentionQuery).then(
      (items) => current && setMentionFound({ query: mentionQuery, items }),
      () => current && setMentionFound({ query: mentionQuery, items: [] }),
    );
    return () => {
      current = false;
    };
  }, [mentionQuery, completeMentions]);
  const mentionItems = mentionQuery !== null && mentionFound?.query === mentionQuery ? mentionFound.items : [];
  const items: MenuItem[] = menuClosed
    ? []
    : typed
      ? commandMatches.map((command) => ({ kind: 'command', command }))
      : mentionItems.map((completion) => ({ kind: 'mention', completion }));
  // Nothing to complete when the only choice is what was typed already.
  const only = items.length === 1 ? items[0] : undefined;
  const exact =
    only !== undefined && (only.kind === 'command' ? only.command.name === typed?.[1] : only.completion.text === mention?.query);
  const showMenu = items.length > 0 && !exact;
  const [sending, setSending] = useState(false);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const blocked = disabled || sending;
  const canSend = !blocked && (text.trim().length > 0 || attachments.list.items.length > 0);

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
    const accepted = await onSend(text.trim(), imagesOf(attachments.list));
    setSending(false);
    if (accepted) {
      setText('');
      attachments.clear();
    }
    inputRef.current?.focus();
  };

  // A completion puts the caret after what it inserted, in the same commit as the new text, before the next
  // keystroke can land (a later frame would move the caret back under a fast typist's letters).
  const pendingCaret = useRef<number | null>(null);
  const moveCaret = (position: number) => {
    setCaret(position);
    pendingCaret.current = position;
  };
  useLayoutEffect(() => {
    const position = pendingCaret.current;
    if (position === null) return;
    pendingCaret.current = null;
    inputRef.current?.setSelectionRange(position, position);
  });

  const complete = (item: MenuItem) => {
    if (item.kind === 'command') {
      const next = `/${item.command.name} `;
      setText(next);
      moveCaret(next.length);
    } else if (mention) {
      const next = completeMention(text, mention, caret, item.completion.text);
      setText(next.text);
      moveCaret(next.caret);
    }
    setHighlighted(0);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (showMenu) {
      const count = items.length;
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        setHighlighted((previous) => (previous + (event.key === 'ArrowDown' ? 1 : count - 1)) % count);
        return;
      }
      if (event.key === 'Tab' || (event.key === 'Enter' && !event.shiftKey)) {
        event.preventDefault();
        const chosen = items[Math.min(highlighted, count - 1)];
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
  const carriesFiles = (event: DragEvent) => Array.from(event.dataTransfer.types).includes('Files');
  return (
    <form
      className={`prompt-box${blocked ? ' is-disabled' : ''}${dropping ? ' is-dropping' : ''}`}
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
      onDragOver={(event) => {
        if (blocked || !carriesFiles(event)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
        setDropping(true);
      }}
      onDragLeave={() => setDropping(false)}
      onDrop={(event) => {
        setDropping(false);
        const files = filesOf(event.dataTransfer);
        if (blocked || files.length === 0) return;
        event.preventDefault();
        void attachments.attach(files);
      }}
    >
      {attachments.problem && (
        <div className="prompt-box-problem" role="alert" data-testid="attachment-problem">
          {attachments.problem}
        </div>
      )}
      <ImageStrip items={attachments.list.items} onRemove={attachments.remove} />
      {showMenu && (
        <ul
          className="slash-menu"
          role="listbox"
          aria-label={typed ? 'Commands' : 'Files'}
          data-testid={typed ? 'slash-menu' : 'mention-menu'}
        >
          {items.map((item, index) => (
            <li
              key={item.kind === 'command' ? `${item.command.source}:${item.command.name}` : item.completion.text}
              role="option"
              aria-selected={index === Math.min(highlighted, items.length - 1)}
              className="slash-item"
              data-testid={item.kind === 'command' ? 'slash-item' : 'mention-item'}
              onMouseDown={(event) => {
                event.preventDefault();
                complete(item);
              }}
            >
              {item.kind === 'command' ? (
                <>
                  <span className="slash-name">/{item.command.name}</span>
                  {item.command.argument_hint && <span className="dim slash-hint">{item.command.argument_hint}</span>}
                  <span className="dim slash-description">{item.command.description}</span>
                  <span className="slash-source" data-testid="slash-source">
                    {SOURCE_LABEL[item.command.source]}
                  </span>
                </>
              ) : (
                <>
                  <span className="slash-name">@{item.completion.text}</span>
                  {item.completion.detail && <span className="dim slash-description">{item.completion.detail}</span>}
                </>
              )}
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
          setCaret(event.target.selectionStart);
          setMenuClosed(false);
          setHighlighted(0);
        }}
        onSelect={(event) => setCaret(event.currentTarget.selectionStart)}
        onKeyDown={onKeyDown}
        onPaste={(event) => {
          const files = filesOf(event.clipboardData);
          if (files.length === 0) {
            // WebKitGTK gives a paste no image data: with no text either, the clipboard may hold an image.
            if (!Array.from(event.clipboardData.types).includes('text/plain')) void attachments.attachClipboardImage();
            return;
          }
          // An image alone is attached; text that came with it (a copied document) is pasted as well.
          if (!Array.from(event.clipboardData.types).includes('text/plain')) event.preventDefault();
          void attachments.attach(files);
        }}
      />
      <button type="submit" className="button button-primary send-button" data-testid="send-button" disabled={!canSend}>
        Send
        <kbd aria-label="Enter"><Icon name="enter" /></kbd>
      </button>
    </form>
  );
}

// The conversational rows of the transcript: the user's prompt, the assistant's markdown text,
// the model's thinking (collapsed to one line until expanded), and the agent's briefs for the person.
import { memo, useContext } from 'react';
import type { BriefStatus, PromptImage } from '../../generated/protocol';
import { useExpanded } from '../../state/expansion';
import { RewindContext } from '../../state/rewind';
import { Chevron } from '../common/Chevron';
import { LazyMarkdown } from './LazyMarkdown';
import { PromptImages } from './PromptImages';
import { Icon } from '../common/Icon';

/** A prompt of the user; with a rewind action (shown on hover or focus) when rewinding is possible. */
export const UserPrompt = memo(function UserPrompt({
  itemKey,
  text,
  images,
}: {
  itemKey: string;
  text: string;
  images?: readonly PromptImage[];
}) {
  const onRewind = useContext(RewindContext);
  return (
    <div className="user-prompt" data-testid="user-prompt">
      <span className="user-prompt-mark" aria-hidden="true">
        ›
      </span>
      <div className="user-prompt-body">
        {text && <div className="user-prompt-text">{text}</div>}
        {images && images.length > 0 && <PromptImages images={images} />}
      </div>
      {onRewind && (
        <button
          type="button"
          className="user-prompt-rewind"
          data-testid="rewind-button"
          title="Rewind to before this prompt…"
          onClick={() => onRewind(itemKey)}
        >
          <Icon name="rewind" /> Rewind to before this prompt…
        </button>
      )}
    </div>
  );
});

/** The agent's brief for the person: a highlighted summary, marked when the agent sent it unasked. */
export const Brief = memo(function Brief({ message, status }: { message: string; status: BriefStatus }) {
  return (
    <aside className={`brief brief-${status}`} data-testid="brief" data-status={status} aria-label="Brief from the agent">
      <div className="brief-label">{status === 'proactive' ? 'Update from the agent' : 'Brief'}</div>
      <div className="brief-text markdown">
        <LazyMarkdown text={message} />
      </div>
    </aside>
  );
});

export const AssistantText = memo(function AssistantText({ text }: { text: string }) {
  return (
    <div className="assistant-text markdown" data-testid="assistant-text">
      <LazyMarkdown text={text} />
    </div>
  );
});

export const Thinking = memo(function Thinking({ itemKey, text }: { itemKey: string; text: string }) {
  const [open, toggle] = useExpanded(`thinking:${itemKey}`);
  const firstLine = text.trim().split('\n', 1)[0] ?? '';
  return (
    <div className="thinking" data-testid="thinking">
      <button type="button" className="thinking-head" aria-expanded={open} onClick={toggle}>
        <Chevron open={open} />
        <span className="thinking-label">Thinking</span>
        {!open && <span className="thinking-preview">{firstLine}</span>}
      </button>
      {open && <div className="thinking-text">{text}</div>}
    </div>
  );
});

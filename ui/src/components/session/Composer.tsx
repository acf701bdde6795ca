// Below the transcript: the session's notices (a failed command, a failed turn to retry, what a rewind did, a stop
// that failed), the teams, background agents and shells, the checklist, a prompt queued while the turn runs, and the
// prompt box.
import type { Draft } from '../../hooks/session/useDraft';
import type { PromptQueue } from '../../hooks/session/usePromptQueue';
import type { RewindFlow } from '../../hooks/session/useRewinding';
import type { MentionCompletion, PromptImage, SlashCommand } from '../../generated/protocol';
import type { Transcript } from '../../state/transcript';
import { ErrorBanner } from '../common/ErrorBanner';
import { Icon } from '../common/Icon';
import { BackgroundAgents } from '../composer/BackgroundAgents';
import { BackgroundShells } from '../composer/BackgroundShells';
import { ScheduledPrompts } from '../composer/ScheduledPrompts';
import { Checklist } from '../composer/Checklist';
import { PromptBox } from '../composer/PromptBox';
import { TeamPanel } from '../composer/TeamPanel';

export type ComposerProps = {
  transcript: Transcript;
  /** Why the last command failed; null while a permission request shows it. */
  error: string | null;
  onDismissError: () => void;
  /** Why stopping or moving work to the background failed. */
  backgroundError: string | null;
  onDismissBackgroundError: () => void;
  rewinds: RewindFlow;
  queue: PromptQueue;
  draft: Draft;
  /** The session whose unsent text the prompt box keeps. */
  draftKey: string;
  onSend: (prompt: string, images: PromptImage[]) => Promise<boolean>;
  commands: readonly SlashCommand[];
  completeMentions: (query: string) => Promise<MentionCompletion[]>;
};

export function Composer(props: ComposerProps) {
  const { transcript, rewinds, queue } = props;
  return (
    <div className="composer">
      {props.error && <ErrorBanner message={props.error} onDismiss={props.onDismissError} />}
      {rewinds.failedPrompt?.promptId !== undefined && (
        <div className="notice retry-notice" data-testid="retry-notice" role="status">
          <span>The last turn failed.</span>
          <button
            type="button"
            className="button"
            data-testid="retry-button"
            disabled={rewinds.retrying}
            onClick={() => void rewinds.retry()}
          >
            Retry
          </button>
        </div>
      )}
      {rewinds.notice && (
        <div className="notice rewind-notice" data-testid="rewind-notice" role="status">
          <span className="notice-mark" aria-hidden="true">
            <Icon name="rewind" />
          </span>
          <span>{rewinds.notice}</span>
          <button
            type="button"
            className="button button-ghost rewind-notice-dismiss"
            aria-label="Dismiss"
            onClick={rewinds.dismissNotice}
          >
            ×
          </button>
        </div>
      )}
      {props.backgroundError && <ErrorBanner message={props.backgroundError} onDismiss={props.onDismissBackgroundError} />}
      <TeamPanel teams={transcript.teams} />
      <BackgroundAgents agents={transcript.backgroundAgents} />
      <BackgroundShells shells={transcript.backgroundShells} />
      <ScheduledPrompts prompts={transcript.scheduledPrompts} />
      <Checklist todos={transcript.todos} tasks={transcript.tasks} />
      {queue.queued !== null && (
        <div className="notice queued-prompt" data-testid="queued-prompt" role="status">
          <span className="queued-label">Sends when this turn ends:</span>
          <span className="queued-text">{queue.queued}</span>
          {queue.queuedImages.length > 0 && (
            <span className="dim" data-testid="queued-images">
              {queue.queuedImages.length === 1 ? '1 image' : `${queue.queuedImages.length} images`}
            </span>
          )}
          <button type="button" className="button" data-testid="queued-edit" onClick={queue.unqueue}>
            Edit
          </button>
        </div>
      )}
      <PromptBox
        key={props.draft.nonce}
        initialText={props.draft.text}
        initialImages={props.draft.images}
        draftKey={props.draftKey}
        busy={transcript.running}
        disabled={false}
        onSend={props.onSend}
        commands={props.commands}
        completeMentions={props.completeMentions}
      />
    </div>
  );
}

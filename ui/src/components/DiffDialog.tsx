// The approval dialog for a file change: a large modal code review of the change (side by side or
// unified, highlighted, word-level marks, folded unchanged runs) with Accept / Accept and don't
// ask again (when a rule is suggested) / Reject with an optional message to the agent. Same
// keyboard as the permission dialog: Enter accepts, Esc rejects, 1–3 pick a choice.
import { useEffect, useId, useMemo, useRef } from 'react';
import type { ApprovalAnswer, ApprovalRequest, FileDiff } from '../generated/protocol';
import { buildDiffModel } from '../diff/model';
import { useApprovalAnswer } from '../hooks/useApprovalAnswer';
import { useDiffViewMode } from '../hooks/useDiffViewMode';
import { DiffBody } from './diff/DiffBody';
import { DiffStats } from './diff/DiffStats';
import { FilePath } from './diff/FilePath';
import { ViewToggle } from './diff/ViewToggle';
import { DecisionSourceLine } from './DecisionSourceLine';
import { ErrorBanner } from './ErrorBanner';

export type DiffDialogProps = {
  request: ApprovalRequest;
  diff: FileDiff;
  /** Resolves to whether the answer reached the engine. */
  onAnswer: (answer: ApprovalAnswer) => Promise<boolean>;
  /** Why the last answer could not be sent, if it could not. */
  error?: string | null;
  /** The project folder: settings files inside it are named relative to it. */
  root?: string;
};

export function DiffDialog({ request, diff, onAnswer, error = null, root }: DiffDialogProps) {
  const { message, setMessage, busy, answer } = useApprovalAnswer(request, onAnswer);
  const model = useMemo(() => buildDiffModel(diff), [diff]);
  const [view, setView] = useDiffViewMode();
  const titleId = useId();
  const acceptRef = useRef<HTMLButtonElement>(null);
  useEffect(() => acceptRef.current?.focus(), [request.id]);
  const suggestion = request.suggestion;
  // A new file has no left side: it is always shown unified.
  const shown = diff.is_new_file ? 'unified' : view;

  return (
    <div className="modal-backdrop diff-backdrop">
      <div
        className="modal diff-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid="diff-dialog"
        data-request-id={request.id}
      >
        <header className="diff-dialog-header">
          <span className="approval-tool" data-testid="approval-tool-name">
            {request.tool_name}
          </span>
          <h2 id={titleId} className="diff-dialog-title" data-testid="diff-path" title={diff.path}>
            <FilePath path={diff.path} />
          </h2>
          {diff.is_new_file && (
            <span className="diff-badge" data-testid="diff-new-file">
              New file
            </span>
          )}
          <DiffStats added={model.added} removed={model.removed} />
          <span className="status-spacer" />
          {!diff.is_new_file && <ViewToggle mode={view} onChange={setView} />}
        </header>
        <p className="diff-dialog-reason" data-testid="approval-reason">
          {request.reason}
        </p>
        <DecisionSourceLine source={request.decided_by} root={root} className="diff-dialog-source" />
        <DiffBody model={model} view={shown} className="diff-dialog-body" />
        {error && <ErrorBanner message={error} />}
        <footer className="diff-dialog-footer">
          <textarea
            className="approval-message diff-message"
            data-testid="diff-message"
            aria-label="Message to the agent"
            rows={1}
            value={message}
            disabled={busy}
            placeholder="Reject and tell the agent what to do instead… (Enter sends Reject)"
            onChange={(event) => setMessage(event.target.value)}
          />
          <div className="diff-dialog-actions">
            <button
              type="button"
              className="button button-danger"
              data-testid="diff-reject"
              disabled={busy}
              onClick={() => void answer('deny')}
            >
              Reject <kbd>Esc</kbd>
            </button>
            {suggestion && (
              <button
                type="button"
                className="button"
                data-testid="diff-accept-always"
                disabled={busy}
                title={`Saved to ${suggestion.destination}`}
                onClick={() => void answer('allow_always')}
              >
                Accept and don't ask again for{' '}
                {suggestion.rules.map((rule, index) => (
                  <span key={rule}>
                    {index > 0 && ', '}
                    <code>{rule}</code>
                  </span>
                ))}
                <kbd>2</kbd>
              </button>
            )}
            <button
              ref={acceptRef}
              type="button"
              className="button button-primary"
              data-testid="diff-accept"
              disabled={busy}
              onClick={() => void answer('allow')}
            >
              Accept <kbd>↵</kbd>
            </button>
          </div>
        </footer>
      </div>
    </div>
  );
}

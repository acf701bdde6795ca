// The approval dialog for a file change: a large modal code review of the change (side by side or
// unified, highlighted, word-level marks, folded unchanged runs) with Accept / Accept and don't
// ask again (when a rule is suggested) / Reject with an optional message to the agent. Each hunk
// can be rejected (it keeps the old lines) and the proposed text edited by hand; the diff then shows
// the change as the person left it, and Accept sends that version (the agent is told how it
// differs). Same keyboard as the permission dialog: Enter accepts, Esc rejects, 1–3 pick a choice.
import { useCallback, useMemo, useRef, useState } from 'react';
import type { ApprovalAnswer, ApprovalRequest, FileDiff, Revision } from '../../generated/protocol';
import { findHunks, rebuildText } from '../../diff/hunks';
import { computeLineDiff } from '../../diff/lines';
import { useHighlighter } from '../../diff/highlighter';
import { buildDiffModel } from '../../diff/model';
import { useApprovalAnswer } from '../../hooks/useApprovalAnswer';
import { useDiffViewMode } from '../../hooks/useDiffViewMode';
import { DiffBody } from '../diff/DiffBody';
import { DiffStats } from '../diff/DiffStats';
import { FilePath } from '../diff/FilePath';
import { HunkReview } from '../diff/HunkReview';
import { ViewToggle } from '../diff/ViewToggle';
import { AskedBy } from './AskedBy';
import { DecisionSourceLine } from './DecisionSourceLine';
import { DecisionTraceView } from './DecisionTraceView';
import { ErrorBanner } from '../common/ErrorBanner';
import { Icon } from '../common/Icon';
import { Modal, ModalTitle } from './Modal';

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
  const proposal = useMemo(() => computeLineDiff(diff.old_text, diff.new_text).lines, [diff]);
  const hunks = useMemo(() => findHunks(proposal), [proposal]);
  const [rejected, setRejected] = useState<ReadonlySet<number>>(new Set());
  /** The text as edited by hand, once the person has edited it. */
  const [edited, setEdited] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const fromHunks = useMemo(
    () => rebuildText(diff.old_text, diff.new_text, proposal, hunks, rejected),
    [diff, proposal, hunks, rejected],
  );
  const revised = edited ?? fromHunks;
  const revision = useCallback((): Revision | null => {
    if (revised === diff.new_text) return null;
    return { text: revised, rejected_hunks: [...rejected].sort((a, b) => a - b), total_hunks: hunks.length, edited: edited !== null };
  }, [revised, diff.new_text, rejected, hunks.length, edited]);
  // Nothing of the proposal left: accepting would change nothing, so Accept means Reject.
  const nothingLeft = revised === diff.old_text && !diff.is_new_file;
  const { message, setMessage, busy, answer, escape } = useApprovalAnswer(request, onAnswer, revision, nothingLeft);
  const hljs = useHighlighter();
  const model = useMemo(() => buildDiffModel({ ...diff, new_text: revised }, hljs), [diff, revised, hljs]);
  const toggleHunk = useCallback((number: number) => {
    setRejected((previous) => {
      const next = new Set(previous);
      if (next.has(number)) next.delete(number);
      else next.add(number);
      return next;
    });
  }, []);
  const [view, setView] = useDiffViewMode();
  const acceptRef = useRef<HTMLButtonElement>(null);
  const suggestion = request.suggestion;
  // A new file has no left side: it is always shown unified.
  const shown = diff.is_new_file ? 'unified' : view;

  return (
    <Modal
      className="diff-dialog"
      backdropClassName="diff-backdrop"
      onEscape={escape}
      initialFocus={acceptRef}
      data-testid="diff-dialog"
      data-request-id={request.id}
    >
      <header className="diff-dialog-header">
        <span className="approval-tool" data-testid="approval-tool-name">
          {request.tool_name}
        </span>
        <ModalTitle className="diff-dialog-title" data-testid="diff-path" title={diff.path}>
          <FilePath path={diff.path} />
        </ModalTitle>
        {diff.is_new_file && (
          <span className="diff-badge" data-testid="diff-new-file">
            New file
          </span>
        )}
        <DiffStats added={model.added} removed={model.removed} />
        <span className="status-spacer" />
        {!diff.is_new_file && <ViewToggle mode={view} onChange={setView} />}
      </header>
      <AskedBy request={request} className="diff-dialog-asked-by" />
      <p className="diff-dialog-reason" data-testid="approval-reason">
        {request.reason}
      </p>
      <DecisionSourceLine source={request.decided_by} root={root} className="diff-dialog-source" />
      <div className="diff-dialog-trace">
        <DecisionTraceView trace={request.trace} root={root} />
      </div>
      <HunkReview
        hunks={hunks}
        rejected={rejected}
        onToggle={toggleHunk}
        editing={editing}
        onEditToggle={() => setEditing((previous) => !previous)}
        disabled={busy}
      />
      {editing ? (
        <textarea
          className="diff-editor"
          data-testid="diff-editor"
          data-editor=""
          aria-label="The file as it will be written"
          spellCheck={false}
          value={revised}
          disabled={busy}
          onChange={(event) => setEdited(event.target.value)}
        />
      ) : (
        <DiffBody model={model} view={shown} className="diff-dialog-body" />
      )}
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
            data-answer="deny"
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
              data-answer="allow_always"
              disabled={busy || nothingLeft}
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
            data-answer="allow"
            data-revised={revision() !== null}
            disabled={busy || nothingLeft}
            title={nothingLeft ? 'Every hunk is rejected: nothing would change' : undefined}
            onClick={() => void answer('allow')}
          >
            {revision() ? 'Accept your version' : 'Accept'} <kbd aria-label="Enter"><Icon name="enter" /></kbd>
          </button>
        </div>
      </footer>
    </Modal>
  );
}

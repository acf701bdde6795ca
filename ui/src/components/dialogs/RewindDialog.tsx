// The rewind dialog: rewinds the session to before one of its prompts. It fetches the session's
// rewind points, finds the one of the chosen prompt row (state/rewind.ts), shows the prompt and the
// files a rewind restores, and offers files and conversation (the default), files only,
// conversation only, or Cancel. When files were changed outside Tandem the rewind changes nothing
// and the dialog lists them, with Overwrite them (the same rewind, forced) or Cancel. Esc cancels.
import { useEffect, useMemo, useRef, useState } from 'react';
import type { RewindOutcome, RewindPoint, RewindScope } from '../../generated/protocol';
import { errorMessage } from '../../ipc';
import { matchRewindPoint } from '../../state/rewind';
import { useLoad } from '../../hooks/useLoad';
import { ErrorBanner } from '../common/ErrorBanner';
import { Modal, ModalTitle } from './Modal';

export type RewindDialogProps = {
  /** The prompt row: its place among the prompt rows (0-based) and its text. */
  ordinal: number;
  text: string;
  /** The prompt's id, when its row has one (the dialog then pairs by id, never by text). */
  promptId?: string;
  loadPoints: () => Promise<RewindPoint[]>;
  rewind: (promptId: string, scope: RewindScope, force: boolean) => Promise<RewindOutcome>;
  /** The rewind happened (files, conversation or both, as `scope` says). */
  onRewound: (outcome: RewindOutcome, scope: RewindScope) => void;
  /** Forks a new session before the prompt (this one stays as it is); absent when sessions are not stored. */
  fork?: (promptId: string) => Promise<void>;
  onCancel: () => void;
};

type Phase =
  | { kind: 'loading' }
  | { kind: 'unmatched' }
  | { kind: 'choose'; point: RewindPoint }
  | { kind: 'conflicts'; point: RewindPoint; scope: RewindScope; conflicts: string[] };

const CHOICES: { scope: RewindScope; label: string; detail: string }[] = [
  { scope: 'both', label: 'Files and conversation', detail: 'Restore the files and forget this prompt and everything after it' },
  { scope: 'files', label: 'Files only', detail: 'Restore the files; the conversation stays as it is' },
  { scope: 'conversation', label: 'Conversation only', detail: 'Forget this prompt and everything after it; the files stay as they are' },
];

export function RewindDialog({ ordinal, text, promptId, loadPoints, rewind, onRewound, fork, onCancel }: RewindDialogProps) {
  const points = useLoad(loadPoints);
  /** Files changed outside Tandem stopped the rewind. */
  const [conflicts, setConflicts] = useState<Extract<Phase, { kind: 'conflicts' }> | null>(null);
  const [busy, setBusy] = useState(false);
  const [runError, setRunError] = useState<string | null>(null);
  const error = runError ?? points.error;
  const firstRef = useRef<HTMLButtonElement>(null);
  const matched = useMemo(
    () => (points.data ? matchRewindPoint(points.data, ordinal, text, promptId) : null),
    [points.data, ordinal, text, promptId],
  );
  const phase: Phase =
    conflicts ??
    (matched ? { kind: 'choose', point: matched } : points.data !== null || points.error ? { kind: 'unmatched' } : { kind: 'loading' });

  // Each phase focuses its first choice.
  useEffect(() => firstRef.current?.focus(), [phase.kind]);

  const runFork = async (point: RewindPoint) => {
    if (!fork) return;
    setBusy(true);
    setRunError(null);
    try {
      await fork(point.prompt_id);
    } catch (cause) {
      setRunError(errorMessage(cause));
      setBusy(false);
    }
  };

  const run = async (point: RewindPoint, scope: RewindScope, force: boolean) => {
    setBusy(true);
    setRunError(null);
    try {
      const outcome = await rewind(point.prompt_id, scope, force);
      if (scope !== 'conversation' && !outcome.files_rewound && outcome.conflicts.length > 0) {
        setConflicts({ kind: 'conflicts', point, scope, conflicts: outcome.conflicts });
      } else {
        onRewound(outcome, scope);
      }
    } catch (cause) {
      setRunError(errorMessage(cause));
    } finally {
      setBusy(false);
    }
  };

  const files = phase.kind === 'choose' || phase.kind === 'conflicts' ? phase.point.files_changed_since : [];
  return (
    <Modal className="rewind-dialog" onEscape={busy ? undefined : onCancel} data-testid="rewind-dialog">
      <header className="modal-header">
        <ModalTitle className="modal-title">
          Rewind to before this prompt
        </ModalTitle>
      </header>
      <blockquote className="rewind-prompt" data-testid="rewind-prompt">
        {phase.kind === 'choose' || phase.kind === 'conflicts' ? phase.point.prompt : text}
      </blockquote>
      {phase.kind === 'loading' && <p className="dim">Looking up the session’s prompts…</p>}
      {phase.kind === 'unmatched' && !error && (
        <p className="rewind-unmatched" data-testid="rewind-unmatched">
          The agent’s conversation has no prompt that matches this one (it may have been compacted or rewound
          already), so it can’t be rewound from here.
        </p>
      )}
      {(phase.kind === 'choose' || phase.kind === 'conflicts') && (
        <div className="rewind-files" data-testid="rewind-files-list">
          {files.length === 0 ? (
            <p className="dim">No file was changed by Tandem from this prompt on.</p>
          ) : (
            <>
              <p className="rewind-files-title">
                {files.length === 1 ? 'This file goes back' : `These ${files.length} files go back`} to how they were
                before the prompt:
              </p>
              <ul>
                {files.map((path) => (
                  <li key={path} data-testid="rewind-file">
                    <code>{path}</code>
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
      {phase.kind === 'conflicts' && (
        <div className="rewind-conflicts" data-testid="rewind-conflicts" role="alert">
          <p>
            {phase.conflicts.length === 1 ? 'This file was' : 'These files were'} changed outside Tandem since it
            wrote {phase.conflicts.length === 1 ? 'it' : 'them'}. Nothing was rewound.
          </p>
          <ul>
            {phase.conflicts.map((path) => (
              <li key={path} data-testid="rewind-conflict">
                <code>{path}</code>
              </li>
            ))}
          </ul>
        </div>
      )}
      {error && <ErrorBanner message={error} />}
      <div className="rewind-actions">
        {phase.kind === 'choose' &&
          CHOICES.map((choice, index) => (
            <button
              key={choice.scope}
              ref={index === 0 ? firstRef : undefined}
              type="button"
              className={`button approval-choice${index === 0 ? ' button-primary' : ''}`}
              data-testid={`rewind-${choice.scope}`}
              disabled={busy}
              onClick={() => void run(phase.point, choice.scope, false)}
            >
              <span>
                {choice.label}
                <span className="rewind-choice-detail">{choice.detail}</span>
              </span>
            </button>
          ))}
        {phase.kind === 'choose' && fork && (
          <button
            type="button"
            className="button approval-choice"
            data-testid="rewind-fork"
            disabled={busy}
            onClick={() => void runFork(phase.point)}
          >
            <span>
              Fork a new session from here
              <span className="rewind-choice-detail">Start a session with the conversation before this prompt; this one and the files stay as they are</span>
            </span>
          </button>
        )}
        {phase.kind === 'conflicts' && (
          <button
            ref={firstRef}
            type="button"
            className="button button-danger approval-choice"
            data-testid="rewind-force"
            disabled={busy}
            onClick={() => void run(phase.point, phase.scope, true)}
          >
            <span>
              Overwrite them
              <span className="rewind-choice-detail">and rewind anyway; the changes made outside Tandem are lost</span>
            </span>
          </button>
        )}
        <button
          ref={phase.kind === 'loading' || phase.kind === 'unmatched' ? firstRef : undefined}
          type="button"
          className="button button-ghost approval-choice"
          data-testid="rewind-cancel"
          disabled={busy}
          onClick={onCancel}
        >
          Cancel <kbd>Esc</kbd>
        </button>
      </div>
    </Modal>
  );
}

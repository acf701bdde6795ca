// Asks before another folder replaces a session whose turn is running: stopping the turn and opening
// the folder, or staying. Enter opens, Esc stays.
import { useEffect, useId, useRef } from 'react';
import { useEscape } from '../hooks/useEscape';
import { Icon } from './Icon';

export type SwitchFolderConfirmProps = {
  /** The folder of the running session. */
  current: string;
  /** The folder asked for. */
  next: string;
  onConfirm: () => void;
  onCancel: () => void;
};

export function SwitchFolderConfirm({ current, next, onConfirm, onCancel }: SwitchFolderConfirmProps) {
  const titleId = useId();
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => confirmRef.current?.focus(), []);
  // Captured, so that the session's own Esc (stop the turn) does not also fire.
  useEscape(onCancel, { capture: true });
  return (
    <div className="modal-backdrop">
      <div className="modal bypass-confirm" role="dialog" aria-modal="true" aria-labelledby={titleId} data-testid="switch-folder-confirm">
        <header className="modal-header">
          <h2 id={titleId} className="modal-title">
            Stop the running turn?
          </h2>
        </header>
        <p className="trust-explainer">
          The agent is still working in <code>{current}</code>. Opening <code>{next}</code> stops that turn; the session is
          kept and can be reopened from the sidebar.
        </p>
        <div className="approval-actions">
          <button ref={confirmRef} type="button" className="button button-danger" data-testid="switch-folder-yes" onClick={onConfirm}>
            Stop it and open <kbd aria-label="Enter"><Icon name="enter" /></kbd>
          </button>
          <button type="button" className="button" data-testid="switch-folder-no" onClick={onCancel}>
            Keep working here <kbd>Esc</kbd>
          </button>
        </div>
      </div>
    </div>
  );
}

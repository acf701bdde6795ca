// Asks once per session before bypass mode starts: in it the agent runs commands and changes files
// without asking (deny rules and the safety checks still hold). Enter switches, Esc keeps the mode.
import { useEffect, useId, useRef } from 'react';
import { useEscape } from '../hooks/useEscape';
import { MODE_LABELS } from '../format';
import type { PermissionMode } from '../generated/protocol';
import { Icon } from './Icon';

export type BypassConfirmProps = {
  /** The mode in force, kept when the person declines. */
  current: PermissionMode;
  onConfirm: () => void;
  onCancel: () => void;
};

export function BypassConfirm({ current, onConfirm, onCancel }: BypassConfirmProps) {
  const titleId = useId();
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => confirmRef.current?.focus(), []);
  useEscape(onCancel);
  return (
    <div className="modal-backdrop">
      <div className="modal bypass-confirm" role="dialog" aria-modal="true" aria-labelledby={titleId} data-testid="bypass-confirm">
        <header className="modal-header">
          <h2 id={titleId} className="modal-title">
            Switch to bypass mode?
          </h2>
        </header>
        <p className="trust-explainer">
          The agent will run commands and change files without asking you first, for the rest of this session or until you
          switch back. Your deny rules and the safety checks (protected paths, removing critical folders, anything the
          engine cannot analyse) still ask or refuse. Use it in a disposable checkout or a container.
        </p>
        <div className="approval-actions">
          <button ref={confirmRef} type="button" className="button button-danger" data-testid="bypass-confirm-yes" onClick={onConfirm}>
            Switch to bypass <kbd aria-label="Enter"><Icon name="enter" /></kbd>
          </button>
          <button type="button" className="button" data-testid="bypass-confirm-no" onClick={onCancel}>
            Stay in {MODE_LABELS[current]} <kbd>Esc</kbd>
          </button>
        </div>
      </div>
    </div>
  );
}

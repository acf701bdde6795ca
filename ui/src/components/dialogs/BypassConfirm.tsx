// Asks once per session before bypass mode starts: in it the agent runs commands and changes files
// without asking (deny rules and the safety checks still hold). Enter switches, Esc keeps the mode.
import { useRef } from 'react';
import { MODE_LABELS } from '../../format';
import type { PermissionMode } from '../../generated/protocol';
import { Icon } from '../common/Icon';
import { Modal, ModalTitle } from './Modal';

export type BypassConfirmProps = {
  /** The mode in force, kept when the person declines. */
  current: PermissionMode;
  onConfirm: () => void;
  onCancel: () => void;
};

export function BypassConfirm({ current, onConfirm, onCancel }: BypassConfirmProps) {
  const confirmRef = useRef<HTMLButtonElement>(null);
  return (
    <Modal className="bypass-confirm" onEscape={onCancel} initialFocus={confirmRef} data-testid="bypass-confirm">
      <header className="modal-header">
        <ModalTitle className="modal-title">
          Switch to bypass mode?
        </ModalTitle>
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
    </Modal>
  );
}

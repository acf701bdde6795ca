// Asks before another folder replaces a session whose turn is running: stopping the turn and opening
// the folder, or staying. Enter opens, Esc stays.
import { useRef } from 'react';
import { Icon } from '../common/Icon';
import { Modal, ModalTitle } from './Modal';

export type SwitchFolderConfirmProps = {
  /** The folder of the running session. */
  current: string;
  /** The folder asked for. */
  next: string;
  onConfirm: () => void;
  onCancel: () => void;
};

export function SwitchFolderConfirm({ current, next, onConfirm, onCancel }: SwitchFolderConfirmProps) {
  const confirmRef = useRef<HTMLButtonElement>(null);
  return (
    <Modal className="bypass-confirm" onEscape={onCancel} initialFocus={confirmRef} data-testid="switch-folder-confirm">
      <header className="modal-header">
        <ModalTitle className="modal-title">
          Stop the running turn?
        </ModalTitle>
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
    </Modal>
  );
}

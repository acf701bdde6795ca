// Asks before a tab closes whose session runs a turn or waits for the person: stopping the turn (refusing what
// waits) and closing the tab, or keeping it. Enter closes, Esc keeps it.
import { useRef } from 'react';
import { Icon } from '../common/Icon';
import { Modal, ModalTitle } from './Modal';

export type CloseTabConfirmProps = {
  /** The folder of the session whose tab would close. */
  folder: string;
  /** Whether a dialog of the session waits for the person (else a turn runs). */
  waiting: boolean;
  onConfirm: () => void;
  onCancel: () => void;
};

export function CloseTabConfirm({ folder, waiting, onConfirm, onCancel }: CloseTabConfirmProps) {
  const confirmRef = useRef<HTMLButtonElement>(null);
  return (
    <Modal className="bypass-confirm" onEscape={onCancel} initialFocus={confirmRef} data-testid="close-tab-confirm">
      <header className="modal-header">
        <ModalTitle className="modal-title">{waiting ? 'Close a session that waits for you?' : 'Stop the running turn?'}</ModalTitle>
      </header>
      <p className="trust-explainer">
        {waiting ? (
          <>
            The agent in <code>{folder}</code> waits for your answer. Closing the tab refuses it and stops the turn;
          </>
        ) : (
          <>
            The agent is still working in <code>{folder}</code>. Closing the tab stops that turn;
          </>
        )}{' '}
        the session is kept and can be reopened from the sidebar.
      </p>
      <div className="approval-actions">
        <button ref={confirmRef} type="button" className="button button-danger" data-testid="close-tab-yes" onClick={onConfirm}>
          Stop it and close <kbd aria-label="Enter"><Icon name="enter" /></kbd>
        </button>
        <button type="button" className="button" data-testid="close-tab-no" onClick={onCancel}>
          Keep it open <kbd>Esc</kbd>
        </button>
      </div>
    </Modal>
  );
}

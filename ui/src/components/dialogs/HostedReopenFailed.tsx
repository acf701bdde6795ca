// Shown when a stored session an external agent ran (an agent of `agentServers`, or a remote folder) could not be
// continued with that agent on reopening it: why (the agent is no longer configured, the far machine cannot be
// reached, the agent cannot load its sessions), and what the window can do instead — go on with Tandem's own model,
// which sees the session's prompts and answers, or leave it closed.
import { useRef } from 'react';
import { Modal, ModalTitle } from './Modal';

export type HostedReopenFailedProps = {
  /** Why the agent could not continue the session. */
  message: string;
  /** Whether a retry with Tandem's own model is under way. */
  busy: boolean;
  onOwnAgent: () => void;
  onCancel: () => void;
};

export function HostedReopenFailed({ message, busy, onOwnAgent, onCancel }: HostedReopenFailedProps) {
  const ownRef = useRef<HTMLButtonElement>(null);
  return (
    <Modal className="bypass-confirm" onEscape={busy ? undefined : onCancel} initialFocus={ownRef} data-testid="hosted-reopen-failed">
      <header className="modal-header">
        <ModalTitle className="modal-title">The agent cannot continue this session</ModalTitle>
      </header>
      <p className="trust-explainer" data-testid="hosted-reopen-message">
        {message}
      </p>
      <p className="trust-explainer">
        You can go on with Tandem&apos;s own model instead: it sees the session&apos;s prompts and answers, but not the agent&apos;s own
        tool calls.
      </p>
      <div className="approval-actions">
        <button ref={ownRef} type="button" className="button button-primary" data-testid="hosted-reopen-own" disabled={busy} onClick={onOwnAgent}>
          Continue with Tandem&apos;s own model
        </button>
        <button type="button" className="button" data-testid="hosted-reopen-cancel" disabled={busy} onClick={onCancel}>
          Leave it closed <kbd>Esc</kbd>
        </button>
      </div>
    </Modal>
  );
}

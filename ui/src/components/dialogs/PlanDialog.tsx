// The plan review: the agent's plan as markdown, approved into default mode (Enter) or with edits
// accepted automatically, or kept in plan mode with feedback for the agent (Esc, through the Modal, or Enter
// inside the feedback box).
import { useEffect, useRef, useState } from 'react';
import type { PlanAnswer, PlanChoice, PlanRequest } from '../../generated/protocol';
import { errorMessage } from '../../ipc';
import { ErrorBanner } from '../common/ErrorBanner';
import { LazyMarkdown } from '../transcript/LazyMarkdown';
import { Icon } from '../common/Icon';
import { Modal, ModalTitle } from './Modal';

export type PlanDialogProps = {
  request: PlanRequest;
  onAnswer: (answer: PlanAnswer) => Promise<void>;
};

export function PlanDialog({ request, onAnswer }: PlanDialogProps) {
  const approveRef = useRef<HTMLButtonElement>(null);
  const [feedback, setFeedback] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const send = async (choice: PlanChoice) => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await onAnswer({ request_id: request.id, choice });
    } catch (cause) {
      setError(errorMessage(cause));
      setBusy(false);
    }
  };
  const keepPlanning = () => void send({ choice: 'keep_planning', feedback: feedback.trim() });
  const sendRef = useRef({ keepPlanning, approve: () => void send({ choice: 'approve', mode: 'default' }) });
  useEffect(() => {
    sendRef.current = { keepPlanning, approve: () => void send({ choice: 'approve', mode: 'default' }) };
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const target = event.target instanceof HTMLElement ? event.target : null;
      if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        if (target?.tagName === 'BUTTON') return;
        event.preventDefault();
        if (target?.tagName === 'TEXTAREA') sendRef.current.keepPlanning();
        else sendRef.current.approve();
      }
    };
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, [request.id]);

  return (
    <Modal
      className="plan-dialog"
      onEscape={keepPlanning}
      initialFocus={approveRef}
      data-testid="plan-dialog"
      data-request-id={request.id}
    >
      <header className="modal-header">
        <span className="approval-tool">Plan</span>
        <ModalTitle className="modal-title">
          Ready to start on this plan?
        </ModalTitle>
      </header>
      <div className="plan-body" data-testid="plan-body">
        <LazyMarkdown text={request.plan} />
      </div>
      {error && <ErrorBanner message={error} />}
      <textarea
        className="approval-message"
        data-testid="plan-feedback"
        aria-label="Feedback for the agent"
        rows={2}
        value={feedback}
        disabled={busy}
        placeholder="Keep planning: tell the agent what to change… (Enter sends)"
        onChange={(event) => setFeedback(event.target.value)}
      />
      <div className="approval-actions">
        <button
          ref={approveRef}
          type="button"
          className="button button-primary"
          data-testid="plan-approve"
          disabled={busy}
          onClick={() => void send({ choice: 'approve', mode: 'default' })}
        >
          Approve and start <kbd aria-label="Enter"><Icon name="enter" /></kbd>
        </button>
        <button
          type="button"
          className="button"
          data-testid="plan-approve-accept-edits"
          disabled={busy}
          title="Start with file edits accepted without asking"
          onClick={() => void send({ choice: 'approve', mode: 'acceptEdits' })}
        >
          Approve, accept edits automatically
        </button>
        <button type="button" className="button" data-testid="plan-keep-planning" disabled={busy} onClick={keepPlanning}>
          Keep planning <kbd>Esc</kbd>
        </button>
      </div>
    </Modal>
  );
}

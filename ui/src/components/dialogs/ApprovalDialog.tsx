// The permission request dialog: what the agent wants to run, why the engine asks and what decided
// to ask (a rule and its file, a hook, the mode, a safety check), answered
// with Yes / Yes and don't ask again (when a rule is suggested) / No with an optional message.
// Keyboard (useApprovalAnswer): Enter = Yes, Esc = No (Enter inside the message box sends No with
// the message), and the numbers shown beside the choices pick them.
import { useRef } from 'react';
import type { ApprovalAnswer, ApprovalRequest } from '../../generated/protocol';
import { prettyJson } from '../../format';
import { useApprovalAnswer } from '../../hooks/useApprovalAnswer';
import { ErrorBanner } from '../common/ErrorBanner';
import { DecisionSourceLine } from './DecisionSourceLine';
import { DecisionTraceView } from './DecisionTraceView';
import { AskedBy } from './AskedBy';
import { ToolDiff } from '../transcript/ToolDiff';
import { Icon } from '../common/Icon';
import { Modal, ModalTitle } from './Modal';

export type ApprovalDialogProps = {
  request: ApprovalRequest;
  /** Resolves to whether the answer reached the engine. */
  onAnswer: (answer: ApprovalAnswer) => Promise<boolean>;
  /** Why the last answer could not be sent, if it could not. */
  error?: string | null;
  /** The project folder: settings files inside it are named relative to it. */
  root?: string;
};

export function ApprovalDialog({ request, onAnswer, error = null, root }: ApprovalDialogProps) {
  const { message, setMessage, busy, answer, escape } = useApprovalAnswer(request, onAnswer);
  const allowRef = useRef<HTMLButtonElement>(null);

  return (
    <Modal
      className="approval-dialog"
      onEscape={escape}
      initialFocus={allowRef}
      data-testid="approval-dialog"
      data-request-id={request.id}
    >
      <header className="modal-header">
        <span className="approval-tool" data-testid="approval-tool-name">
          {request.tool_name}
        </span>
        <ModalTitle className="modal-title" data-testid="approval-title">
          {request.title}
        </ModalTitle>
      </header>
      <AskedBy request={request} />
      <p className="approval-reason" data-testid="approval-reason">
        {request.reason}
      </p>
      <DecisionSourceLine source={request.decided_by} root={root} />
      <DecisionTraceView trace={request.trace} root={root} />
      <ApprovalInput request={request} />
      <ApprovalWarnings warnings={request.warnings ?? []} />
      {(request.previews ?? []).length > 0 && (
        <div className="approval-previews" data-testid="approval-previews">
          <p className="dim">What the command would change:</p>
          {(request.previews ?? []).map((diff, index) => (
            <ToolDiff key={diff.path} callId={`preview:${request.id}:${index}`} diff={diff} />
          ))}
        </div>
      )}
      {error && <ErrorBanner message={error} />}
      <div className="approval-actions">
        <button
          ref={allowRef}
          type="button"
          className="button button-primary approval-choice"
          data-testid="approval-allow"
          data-answer="allow"
          disabled={busy}
          onClick={() => void answer('allow')}
        >
          <span className="choice-key">1</span> Yes <kbd aria-label="Enter"><Icon name="enter" /></kbd>
        </button>
        {request.suggestion && (
          <button
            type="button"
            className="button approval-choice"
            data-testid="approval-allow-always"
          data-answer="allow_always"
            disabled={busy}
            onClick={() => void answer('allow_always')}
          >
            <span className="choice-key">2</span>
            <span>
              Yes, and don't ask again for{' '}
              {request.suggestion.rules.map((rule, index) => (
                <span key={rule}>
                  {index > 0 && ', '}
                  <code>{rule}</code>
                </span>
              ))}{' '}
              <span className="dim">(saved to {request.suggestion.destination})</span>
            </span>
          </button>
        )}
        <button
          type="button"
          className="button button-danger approval-choice"
          data-testid="approval-deny"
          data-answer="deny"
          disabled={busy}
          onClick={() => void answer('deny')}
        >
          <span className="choice-key">{request.suggestion ? 3 : 2}</span> No <kbd>Esc</kbd>
        </button>
      </div>
      <textarea
        className="approval-message"
        data-testid="approval-message"
        aria-label="Message to the agent"
        rows={2}
        value={message}
        disabled={busy}
        placeholder="No, and tell the agent what to do instead… (Enter sends No)"
        onChange={(event) => setMessage(event.target.value)}
      />
    </Modal>
  );
}

/** What the call would destroy, in a warning style. */
function ApprovalWarnings({ warnings }: { warnings: string[] }) {
  if (warnings.length === 0) return null;
  return (
    <ul className="approval-warnings" data-testid="approval-warnings" role="alert">
      {warnings.map((warning) => (
        <li key={warning} className="approval-warning">
          <Icon name="warning" className="approval-warning-icon" />
          {warning}
        </li>
      ))}
    </ul>
  );
}

/** The call's input: the command for shell work, pretty JSON otherwise. */
function ApprovalInput({ request }: { request: ApprovalRequest }) {
  const input = request.input;
  if (request.kind === 'shell' && isRecord(input) && typeof input.command === 'string') {
    return (
      <div className="approval-input">
        <pre className="approval-command" data-testid="approval-input">
          <span className="dim">$ </span>
          {input.command}
        </pre>
        {typeof input.description === 'string' && <p className="approval-description">{input.description}</p>}
      </div>
    );
  }
  return (
    <pre className="approval-input approval-json" data-testid="approval-input">
      {prettyJson(input)}
    </pre>
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

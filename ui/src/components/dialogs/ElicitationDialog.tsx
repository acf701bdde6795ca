// An MCP server's form (elicitation): its message, then one control per field — text (with its
// format), number, checkbox, a choice of options or several — each checked as the specification
// says, the problems shown under the fields once the person tries to send. Send (Enter) accepts
// with the values, Decline refuses, Cancel (Esc) dismisses without choosing.
import { useEffect, useId, useRef, useState } from 'react';
import type { ElicitationAction, ElicitationAnswer, ElicitationField, ElicitationRequest } from '../../generated/protocol';
import { errorMessage } from '../../ipc';
import { type FieldValue, formContent, formProblems, initialValues } from '../../state/elicitation';
import { ErrorBanner } from '../common/ErrorBanner';
import { Icon } from '../common/Icon';
import { Modal, ModalTitle } from './Modal';

export type ElicitationDialogProps = {
  request: ElicitationRequest;
  onAnswer: (answer: ElicitationAnswer) => Promise<void>;
};

const PLACEHOLDERS: Record<string, string> = {
  email: 'name@example.org',
  uri: 'https://…',
  date: 'YYYY-MM-DD',
  'date-time': 'YYYY-MM-DDTHH:MM:SSZ',
};

export function ElicitationDialog({ request, onAnswer }: ElicitationDialogProps) {
  const [values, setValues] = useState<Record<string, FieldValue>>(() => initialValues(request.fields));
  const [showProblems, setShowProblems] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const problems = formProblems(request.fields, values);

  const send = async (action: ElicitationAction) => {
    if (busy) return;
    if (action === 'accept' && Object.keys(problems).length > 0) {
      setShowProblems(true);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await onAnswer({
        request_id: request.id,
        action,
        content: action === 'accept' ? formContent(request.fields, values) : null,
      });
    } catch (cause) {
      setError(errorMessage(cause));
      setBusy(false);
    }
  };
  const latest = useRef(send);
  useEffect(() => {
    latest.current = send;
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const target = event.target instanceof HTMLElement ? event.target : null;
      if (event.key === 'Enter' && !event.isComposing && target?.tagName !== 'BUTTON' && target?.tagName !== 'TEXTAREA') {
        event.preventDefault();
        void latest.current('accept');
      }
    };
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, []);

  const set = (name: string, value: FieldValue) => setValues((previous) => ({ ...previous, [name]: value }));

  return (
    <Modal
      className="question-dialog"
      onEscape={() => void send('cancel')}
      data-testid="elicitation-dialog"
      data-request-id={request.id}
    >
      <header className="modal-header">
        <span className="approval-tool">MCP {request.server}</span>
        <ModalTitle className="modal-title">
          The server {request.server} asks for information
        </ModalTitle>
      </header>
      {request.message && (
        <p className="elicitation-message" data-testid="elicitation-message">
          {request.message}
        </p>
      )}
      {request.fields.map((field) => (
        <Field
          key={field.name}
          field={field}
          value={values[field.name]}
          problem={showProblems ? (problems[field.name] ?? null) : null}
          disabled={busy}
          onChange={(value) => set(field.name, value)}
        />
      ))}
      <p className="dim">What you send goes to the MCP server {request.server}, not to the agent.</p>
      {error && <ErrorBanner message={error} />}
      <div className="approval-actions">
        <button type="button" className="button button-primary" data-testid="elicitation-accept" disabled={busy} onClick={() => void send('accept')}>
          Send <kbd aria-label="Enter"><Icon name="enter" /></kbd>
        </button>
        <button type="button" className="button" data-testid="elicitation-decline" disabled={busy} onClick={() => void send('decline')}>
          Decline
        </button>
        <button type="button" className="button" data-testid="elicitation-cancel" disabled={busy} onClick={() => void send('cancel')}>
          Cancel <kbd>Esc</kbd>
        </button>
      </div>
    </Modal>
  );
}

function Field({
  field,
  value,
  problem,
  disabled,
  onChange,
}: {
  field: ElicitationField;
  value: FieldValue | undefined;
  problem: string | null;
  disabled: boolean;
  onChange: (value: FieldValue) => void;
}) {
  const id = useId();
  const label = field.title ?? field.name;
  const kind = field.kind;
  const text = typeof value === 'string' ? value : '';
  let control;
  switch (kind.type) {
    case 'string':
    case 'number':
      control = (
        <input
          id={id}
          className="question-other-input"
          data-testid="elicitation-input"
          inputMode={kind.type === 'number' ? (kind.integer ? 'numeric' : 'decimal') : kind.format === 'email' ? 'email' : undefined}
          placeholder={kind.type === 'string' && kind.format ? PLACEHOLDERS[kind.format] : undefined}
          value={text}
          disabled={disabled}
          aria-invalid={problem !== null}
          onChange={(event) => onChange(event.target.value)}
        />
      );
      break;
    case 'boolean':
      control = (
        <input id={id} type="checkbox" data-testid="elicitation-input" checked={value === true} disabled={disabled} onChange={(event) => onChange(event.target.checked)} />
      );
      break;
    case 'enum':
      control = (
        <select id={id} data-testid="elicitation-input" value={text} disabled={disabled} aria-invalid={problem !== null} onChange={(event) => onChange(event.target.value)}>
          <option value="">Choose…</option>
          {kind.options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      );
      break;
    case 'multi_select': {
      const chosen = Array.isArray(value) ? value : [];
      control = (
        <div id={id} role="group" aria-label={label}>
          {kind.options.map((option) => (
            <label key={option.value} className={`question-option${chosen.includes(option.value) ? ' is-chosen' : ''}`}>
              <input
                type="checkbox"
                data-testid="elicitation-option"
                checked={chosen.includes(option.value)}
                disabled={disabled}
                onChange={() =>
                  onChange(chosen.includes(option.value) ? chosen.filter((each) => each !== option.value) : [...chosen, option.value])
                }
              />
              <span className="question-option-label">{option.label}</span>
            </label>
          ))}
        </div>
      );
      break;
    }
  }
  return (
    <div className="question" data-testid="elicitation-field" data-field={field.name}>
      <label htmlFor={id} className="question-text">
        {label}
        {field.required && <span aria-label="required"> *</span>}
      </label>
      {field.description && <div className="dim">{field.description}</div>}
      <div>{control}</div>
      {problem && (
        <div className="rules-problem" role="alert" data-testid="elicitation-problem">
          {problem}
        </div>
      )}
    </div>
  );
}

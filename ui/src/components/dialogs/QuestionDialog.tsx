// The agent's questions (one to four, each with two to four options, one or several to pick, or an
// answer of one's own under "Other"). Keyboard: the digits pick options of the first question still
// unanswered (the last digit is "Other"), Enter submits once every question has an answer, Esc
// declines to answer. The dialog box takes focus on open (the Modal's default), so the digits pick options.
import { useEffect, useRef, useState } from 'react';
import type { QuestionAnswer, QuestionOutcome, QuestionReply, QuestionRequest } from '../../generated/protocol';
import { errorMessage } from '../../ipc';
import { ErrorBanner } from '../common/ErrorBanner';
import { Icon } from '../common/Icon';
import { Modal, ModalTitle } from './Modal';

export type QuestionDialogProps = {
  request: QuestionRequest;
  onAnswer: (answer: QuestionAnswer) => Promise<void>;
};

type Draft = { selected: string[]; other: string | null };

const answered = (draft: Draft) => draft.selected.length > 0 || (draft.other ?? '').trim() !== '';

export function QuestionDialog({ request, onAnswer }: QuestionDialogProps) {
  const [drafts, setDrafts] = useState<Draft[]>(() => request.questions.map(() => ({ selected: [], other: null })));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const otherRefs = useRef<(HTMLInputElement | null)[]>([]);
  const complete = drafts.every(answered);

  const pick = (index: number, label: string) => {
    setDrafts((previous) =>
      previous.map((draft, i) => {
        if (i !== index) return draft;
        const multi = request.questions[i]?.multi_select ?? false;
        if (multi) {
          const selected = draft.selected.includes(label)
            ? draft.selected.filter((each) => each !== label)
            : [...draft.selected, label];
          return { ...draft, selected };
        }
        return { selected: [label], other: null };
      }),
    );
  };
  const setOther = (index: number, text: string | null) => {
    setDrafts((previous) =>
      previous.map((draft, i) => {
        if (i !== index) return draft;
        const multi = request.questions[i]?.multi_select ?? false;
        return { selected: multi ? draft.selected : [], other: text };
      }),
    );
  };

  const send = async (outcome: QuestionOutcome) => {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await onAnswer({ request_id: request.id, outcome });
    } catch (cause) {
      setError(errorMessage(cause));
      setBusy(false);
    }
  };
  const submit = () => {
    if (!complete) return;
    const replies: QuestionReply[] = drafts.map((draft) => ({
      selected: draft.selected,
      other: draft.other !== null && draft.other.trim() !== '' ? draft.other.trim() : null,
    }));
    void send({ outcome: 'answered', replies });
  };

  const decline = () => void send({ outcome: 'declined', message: null });
  const latest = useRef({ submit, drafts, pick });
  useEffect(() => {
    latest.current = { submit, drafts, pick };
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const target = event.target instanceof HTMLElement ? event.target : null;
      const typing =
        target?.tagName === 'TEXTAREA' || (target instanceof HTMLInputElement && target.type === 'text');
      if (event.key === 'Enter' && !event.isComposing) {
        if (target?.tagName === 'BUTTON') return;
        event.preventDefault();
        latest.current.submit();
      } else if (!typing && /^[1-9]$/.test(event.key) && !event.ctrlKey && !event.metaKey && !event.altKey) {
        const index = latest.current.drafts.findIndex((draft) => !answered(draft));
        const active = index < 0 ? 0 : index;
        const question = request.questions[active];
        if (!question) return;
        const digit = Number(event.key);
        event.preventDefault();
        const option = question.options[digit - 1];
        if (option) latest.current.pick(active, option.label);
        else if (digit === question.options.length + 1) otherRefs.current[active]?.focus();
      }
    };
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, [request]);

  return (
    <Modal className="question-dialog" onEscape={decline} data-testid="question-dialog" data-request-id={request.id}>
      <header className="modal-header">
        <span className="approval-tool">Question</span>
        <ModalTitle className="modal-title">
          {request.questions.length === 1 ? 'The agent asks' : `The agent asks ${request.questions.length} questions`}
        </ModalTitle>
      </header>
      {request.questions.map((question, index) => {
        const draft = drafts[index] ?? { selected: [], other: null };
        return (
          <fieldset key={question.question} className="question" data-testid="question" data-answered={answered(draft)}>
            <legend className="question-text">
              <span className="question-header">{question.header}</span> {question.question}
              {question.multi_select && <span className="dim"> (pick any)</span>}
            </legend>
            {question.options.map((option, n) => {
              const chosen = draft.selected.includes(option.label);
              return (
                <label key={option.label} className={`question-option${chosen ? ' is-chosen' : ''}`}>
                  <input
                    type={question.multi_select ? 'checkbox' : 'radio'}
                    name={`${request.id}-${index}`}
                    data-testid="question-option"
                    checked={chosen}
                    disabled={busy}
                    onChange={() => pick(index, option.label)}
                  />
                  <span className="choice-key">{n + 1}</span>
                  <span className="question-option-label">{option.label}</span>
                  <span className="dim question-option-description">{option.description}</span>
                </label>
              );
            })}
            <label className="question-option question-other">
              <span className="choice-key">{question.options.length + 1}</span>
              <input
                ref={(element) => {
                  otherRefs.current[index] = element;
                }}
                className="question-other-input"
                data-testid="question-other"
                placeholder="Other: type your own answer"
                value={draft.other ?? ''}
                disabled={busy}
                onChange={(event) => setOther(index, event.target.value)}
              />
            </label>
          </fieldset>
        );
      })}
      {error && <ErrorBanner message={error} />}
      <div className="approval-actions">
        <button type="button" className="button button-primary" data-testid="question-submit" disabled={busy || !complete} onClick={submit}>
          Answer <kbd aria-label="Enter"><Icon name="enter" /></kbd>
        </button>
        <button type="button" className="button" data-testid="question-decline" disabled={busy} onClick={decline}>
          Don’t answer <kbd>Esc</kbd>
        </button>
      </div>
    </Modal>
  );
}

// Answering one approval request, shared by the permission dialog and the diff dialog: the
// optional message to the agent, the person's revision of a file change, the busy state while the
// answer is sent, and the keyboard — Enter = allow (also after a click on a view toggle or a hunk:
// only the answer buttons answer by themselves), Esc = deny (`escape`, given to the dialog's Modal; Enter
// inside the message box sends deny with the message), and the numbers shown beside the choices pick them.
import { useEffect, useRef, useState } from 'react';
import type { ApprovalAnswer, ApprovalChoice, ApprovalRequest, Revision } from '../generated/protocol';

export type ApprovalAnswering = {
  message: string;
  setMessage: (message: string) => void;
  busy: boolean;
  answer: (choice: ApprovalChoice) => Promise<void>;
  /** Esc: deny, unless it was pressed in the diff dialog's text editor. */
  escape: (event: KeyboardEvent) => void;
};

/** The key of each choice: 1 allow, 2 allow always (when offered), then deny. */
export function choiceKeys(hasSuggestion: boolean): Record<string, ApprovalChoice> {
  return hasSuggestion ? { '1': 'allow', '2': 'allow_always', '3': 'deny' } : { '1': 'allow', '2': 'deny' };
}

/**
 * `revision` gives the person's version of a file change (null: as proposed); with `allowMeansDeny`
 * (nothing of the proposal is left) an allow is sent as a deny.
 */
export function useApprovalAnswer(
  request: ApprovalRequest,
  onAnswer: (answer: ApprovalAnswer) => Promise<boolean>,
  revision: () => Revision | null = () => null,
  allowMeansDeny = false,
): ApprovalAnswering {
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);

  const answer = async (asked: ApprovalChoice) => {
    if (busy) return;
    setBusy(true);
    const choice: ApprovalChoice = allowMeansDeny && asked !== 'deny' ? 'deny' : asked;
    const trimmed = message.trim();
    const revised = choice === 'deny' ? null : revision();
    const reply: ApprovalAnswer = {
      request_id: request.id,
      choice,
      message: (choice === 'deny' || revised) && trimmed ? trimmed : null,
    };
    if (revised) reply.revision = revised;
    const sent = await onAnswer(reply);
    if (!sent) setBusy(false);
  };
  // The key handler below is installed once per request; it reads the latest answer() here.
  const answerRef = useRef(answer);
  useEffect(() => {
    answerRef.current = answer;
  });

  const hasSuggestion = request.suggestion !== null;
  useEffect(() => {
    const byNumber = choiceKeys(hasSuggestion);
    const onKeyDown = (event: KeyboardEvent) => {
      const target = event.target instanceof HTMLElement ? event.target : null;
      if (isEditor(target)) return;
      const typing = target?.tagName === 'TEXTAREA';
      const choice = byNumber[event.key];
      if (choice && !typing && !event.ctrlKey && !event.metaKey && !event.altKey) {
        event.preventDefault();
        event.stopPropagation();
        void answerRef.current(choice);
      } else if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        if (target?.tagName === 'BUTTON' && target.dataset.answer !== undefined) return; // an answer button answers by itself
        event.preventDefault();
        event.stopPropagation();
        void answerRef.current(typing ? 'deny' : 'allow');
      }
    };
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, [request.id, hasSuggestion]);

  const escape = (event: KeyboardEvent) => {
    if (!isEditor(event.target)) void answer('deny');
  };
  return { message, setMessage, busy, answer, escape };
}

/** The diff dialog's text editor, which takes every key as text. */
function isEditor(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && target.dataset.editor !== undefined;
}

// Answering one approval request, shared by the permission dialog and the diff dialog: the
// optional message to the agent, the busy state while the answer is sent, and the keyboard —
// Enter = allow, Esc = deny (Enter inside the message box sends deny with the message), and the
// numbers shown beside the choices pick them.
import { useEffect, useRef, useState } from 'react';
import type { ApprovalAnswer, ApprovalChoice, ApprovalRequest } from '../generated/protocol';

export type ApprovalAnswering = {
  message: string;
  setMessage: (message: string) => void;
  busy: boolean;
  answer: (choice: ApprovalChoice) => Promise<void>;
};

/** The key of each choice: 1 allow, 2 allow always (when offered), then deny. */
export function choiceKeys(hasSuggestion: boolean): Record<string, ApprovalChoice> {
  return hasSuggestion ? { '1': 'allow', '2': 'allow_always', '3': 'deny' } : { '1': 'allow', '2': 'deny' };
}

export function useApprovalAnswer(
  request: ApprovalRequest,
  onAnswer: (answer: ApprovalAnswer) => Promise<boolean>,
): ApprovalAnswering {
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);

  const answer = async (choice: ApprovalChoice) => {
    if (busy) return;
    setBusy(true);
    const trimmed = message.trim();
    const sent = await onAnswer({
      request_id: request.id,
      choice,
      message: choice === 'deny' && trimmed ? trimmed : null,
    });
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
      const target = event.target as HTMLElement | null;
      const typing = target?.tagName === 'TEXTAREA';
      const choice = byNumber[event.key];
      if (choice && !typing && !event.ctrlKey && !event.metaKey && !event.altKey) {
        event.preventDefault();
        event.stopPropagation();
        void answerRef.current(choice);
      } else if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        void answerRef.current('deny');
      } else if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        if (target?.tagName === 'BUTTON') return; // a focused button answers by itself
        event.preventDefault();
        event.stopPropagation();
        void answerRef.current(typing ? 'deny' : 'allow');
      }
    };
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, [request.id, hasSuggestion]);

  return { message, setMessage, busy, answer };
}

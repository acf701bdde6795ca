// The requests waiting on the person, shown one at a time in this order: a permission request (the diff dialog when
// it changes a file), a plan to review, the agent's questions, an MCP server's form. An answered request hides at
// once, before the engine's event that resolves it arrives.
import { useCallback, useState } from 'react';
import type {
  ApprovalAnswer,
  ApprovalRequest,
  ElicitationAnswer,
  ElicitationRequest,
  PlanAnswer,
  PlanRequest,
  QuestionAnswer,
  QuestionRequest,
} from '../../generated/protocol';
import * as ipc from '../../ipc';
import type { Transcript } from '../../state/transcript';

export type RequestQueue = {
  /** The request on screen: at most one of these is set. */
  approval?: ApprovalRequest;
  planReview?: PlanRequest;
  question?: QuestionRequest;
  form?: ElicitationRequest;
  /** Whether a request is on screen. */
  asking: boolean;
  /** Sends an approval answer; resolves to whether it reached the engine (the session shows why not). */
  answerApproval: (answer: ApprovalAnswer) => Promise<boolean>;
  /** Send the answer, then hide the request; reject with the backend's error (the dialog shows it). */
  answerPlan: (answer: PlanAnswer) => Promise<void>;
  answerQuestions: (answer: QuestionAnswer) => Promise<void>;
  answerForm: (answer: ElicitationAnswer) => Promise<void>;
};

export function useRequestQueue(
  transcript: Pick<Transcript, 'approvals' | 'planReviews' | 'questions' | 'forms'>,
  answer: (answer: ApprovalAnswer) => Promise<boolean>,
): RequestQueue {
  const [answered, setAnswered] = useState<ReadonlySet<string>>(new Set());
  const open = <T extends { id: string }>(requests: readonly T[]) => requests.find((request) => !answered.has(request.id));
  const approval = open(transcript.approvals);
  const planReview = approval ? undefined : open(transcript.planReviews);
  const question = approval || planReview ? undefined : open(transcript.questions);
  const form = approval || planReview || question ? undefined : open(transcript.forms);
  const markAnswered = useCallback((id: string) => setAnswered((previous) => new Set(previous).add(id)), []);

  const answerApproval = useCallback(
    async (value: ApprovalAnswer) => {
      const sent = await answer(value);
      if (sent) markAnswered(value.request_id);
      return sent;
    },
    [answer, markAnswered],
  );
  const answerPlan = useCallback(
    async (value: PlanAnswer) => {
      await ipc.answerPlan(value);
      markAnswered(value.request_id);
    },
    [markAnswered],
  );
  const answerQuestions = useCallback(
    async (value: QuestionAnswer) => {
      await ipc.answerQuestions(value);
      markAnswered(value.request_id);
    },
    [markAnswered],
  );
  const answerForm = useCallback(
    async (value: ElicitationAnswer) => {
      await ipc.answerElicitation(value);
      markAnswered(value.request_id);
    },
    [markAnswered],
  );
  const asking = approval !== undefined || planReview !== undefined || question !== undefined || form !== undefined;
  return { approval, planReview, question, form, asking, answerApproval, answerPlan, answerQuestions, answerForm };
}

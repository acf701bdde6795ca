// The request waiting on the person, if any: a permission request (the diff dialog when it changes a file), a plan
// to review, the agent's questions or an MCP server's form. Each dialog is keyed by its request, so the next one
// starts fresh.
import type { RequestQueue } from '../../hooks/session/useRequestQueue';
import { ApprovalDialog } from '../dialogs/ApprovalDialog';
import { DiffDialog } from '../dialogs/DiffDialog';
import { ElicitationDialog } from '../dialogs/ElicitationDialog';
import { PlanDialog } from '../dialogs/PlanDialog';
import { QuestionDialog } from '../dialogs/QuestionDialog';

export type RequestDialogProps = {
  requests: RequestQueue;
  /** Why the last approval answer could not be sent. */
  error: string | null;
  /** The project folder: paths inside it are shown relative to it. */
  root: string;
};

export function RequestDialog({ requests, error, root }: RequestDialogProps) {
  const { approval, planReview, question, form } = requests;
  if (approval?.diff) {
    return (
      <DiffDialog key={approval.id} request={approval} diff={approval.diff} onAnswer={requests.answerApproval} error={error} root={root} />
    );
  }
  if (approval) {
    return <ApprovalDialog key={approval.id} request={approval} onAnswer={requests.answerApproval} error={error} root={root} />;
  }
  if (planReview) return <PlanDialog key={planReview.id} request={planReview} onAnswer={requests.answerPlan} />;
  if (question) return <QuestionDialog key={question.id} request={question} onAnswer={requests.answerQuestions} />;
  if (form) return <ElicitationDialog key={form.id} request={form} onAnswer={requests.answerForm} />;
  return null;
}

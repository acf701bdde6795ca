// What a desktop notification tells a person who is away from the window: a request that now waits for them (a
// permission, a plan, the agent's questions, an MCP server's form) or a turn that ended. Decided from two views of
// the session's state, so it does not matter how the events that led there were batched.
import type { RequestQueue } from '../hooks/session/useRequestQueue';

/** The request on screen, reduced to what a notification says. */
export type Waiting = { id: string; text: string };

/** What the notifications compare: the open session, its request on screen and how many turns have ended. */
export type Moment = { sessionId: string; waiting: Waiting | null; turnsEnded: number };

export type Notice = { title: string; body: string };

/** The request on screen as a notification's line, or null when nothing waits. */
export function waitingOf(requests: Pick<RequestQueue, 'approval' | 'planReview' | 'question' | 'form'>): Waiting | null {
  const { approval, planReview, question, form } = requests;
  if (approval) return { id: approval.id, text: `Allow ${approval.title || approval.tool_name}?` };
  if (planReview) return { id: planReview.id, text: 'A plan waits for your review.' };
  if (question) {
    const first = question.questions[0]?.question ?? 'The agent has a question.';
    const more = question.questions.length > 1 ? ` (and ${question.questions.length - 1} more)` : '';
    return { id: question.id, text: `${first}${more}` };
  }
  if (form) return { id: form.id, text: `${form.server} asks: ${form.message}` };
  return null;
}

/**
 * The notification owed between `before` and `now`, if any: a request that was not on screen before comes first;
 * otherwise a turn that ended. Nothing for the first look at a session (`before` null or another session's), so
 * opening a session that already waits does not notify.
 */
export function noticeBetween(before: Moment | null, now: Moment, where: string): Notice | null {
  if (!before || before.sessionId !== now.sessionId) return null;
  if (now.waiting && now.waiting.id !== before.waiting?.id) {
    return { title: `Tandem is waiting for you — ${where}`, body: now.waiting.text };
  }
  if (now.turnsEnded > before.turnsEnded && !now.waiting) {
    return { title: `Tandem finished — ${where}`, body: 'The agent ended its turn; it is your turn.' };
  }
  return null;
}

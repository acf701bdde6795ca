// Rewinding from the transcript: which RewindPoint a prompt row stands for, and the transcript
// without the rows from a prompt on (after the conversation was rewound to before it).
//
// A prompt row carries its prompt's id (the engine's `turn_started` event names it), and the point
// with that id is the row's point. Rows of sessions stored before prompts had ids pair by order
// when the text agrees, else by a unique text; when there is no such point the row has none and
// the dialog says so instead of rewinding the wrong prompt.
import { createContext } from 'react';
import type { RewindOutcome, RewindPoint, RewindScope } from '../generated/protocol';
import type { Transcript, TranscriptItem } from './transcript';

/** The engine keeps a prompt's first 200 characters (Unicode scalar values) in its point. */
const POINT_PROMPT_CHARS = 200;

function head(text: string): string {
  return Array.from(text).slice(0, POINT_PROMPT_CHARS).join('').trim();
}

function sameText(row: string, point: RewindPoint): boolean {
  return head(row) === head(point.prompt);
}

/** The user prompt items of a transcript, in order. */
export function promptItems(items: readonly TranscriptItem[]): Extract<TranscriptItem, { kind: 'user' }>[] {
  return items.filter((item): item is Extract<TranscriptItem, { kind: 'user' }> => item.kind === 'user');
}

/**
 * The point of the prompt row with id `promptId` (when the row has one), else of the `ordinal`-th prompt row
 * (0-based) whose text is `text`; null when none matches for sure.
 */
export function matchRewindPoint(
  points: readonly RewindPoint[],
  ordinal: number,
  text: string,
  promptId?: string,
): RewindPoint | null {
  if (promptId !== undefined) return points.find((point) => point.prompt_id === promptId) ?? null;
  const byOrder = points[ordinal];
  if (byOrder && sameText(text, byOrder)) return byOrder;
  const byText = points.filter((point) => sameText(text, point));
  return byText.length === 1 ? (byText[0] ?? null) : null;
}

/**
 * The transcript without the `ordinal`-th prompt row (0-based) and everything after it; the same
 * object when there is no such row. Pending approvals and the running flag belong to the cut turns.
 */
export function truncateBeforePrompt(state: Transcript, ordinal: number): Transcript {
  let seen = -1;
  const cut = state.items.findIndex((item) => item.kind === 'user' && ++seen === ordinal);
  if (cut < 0) return state;
  const items = state.items.slice(0, cut);
  const toolIndex: Record<string, number> = {};
  items.forEach((item, index) => {
    if (item.kind === 'tool') toolIndex[item.call.id] = index;
  });
  return { ...state, items, toolIndex, approvals: [], planReviews: [], questions: [], running: false, lastStopReason: null };
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** What a rewind did, in a sentence for the notice under the transcript. */
export function describeRewind(outcome: RewindOutcome, scope: RewindScope): string {
  const parts: string[] = [];
  if (scope !== 'conversation') {
    const { restored, removed } = outcome;
    if (restored.length === 0 && removed.length === 0) parts.push('no file needed restoring');
    else {
      if (restored.length > 0) parts.push(`${plural(restored.length, 'file', 'files')} restored`);
      if (removed.length > 0) parts.push(`${plural(removed.length, 'file', 'files')} removed`);
    }
  }
  if (scope !== 'files') parts.push(`${plural(outcome.messages_removed, 'message', 'messages')} removed from the conversation`);
  const what = scope === 'both' ? 'Files and conversation' : scope === 'files' ? 'Files' : 'Conversation';
  const rest = scope === 'files' ? '' : scope === 'conversation' ? ' The files were left as they are.' : '';
  return `${what} rewound: ${parts.join(', ')}.${rest}`;
}

/** A context: opens the rewind dialog for the prompt row with this item key; null while rewinding is not possible. */
export const RewindContext = createContext<((itemKey: string) => void) | null>(null);

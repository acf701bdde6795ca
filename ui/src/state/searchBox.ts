// The state of the search box (Ctrl+K) over every stored session: the query as typed, the hits shown and which
// request they answer, the selected hit. Requests are numbered as they are sent; an answer is shown only when it
// answers a request sent after the one whose hits are shown, so the results of an older query never replace a
// newer one's, whatever order the answers come back in.
import type { SessionSearchHit } from '../generated/protocol';

export type SearchBoxState = {
  query: string;
  /** The number of the last request sent (0: none yet). */
  sent: number;
  /** The request whose answer is shown (0: none). */
  shown: number;
  hits: readonly SessionSearchHit[];
  /** The selected hit's index in `hits`. */
  selected: number;
  /** Why the shown request failed, if it did. */
  error: string | null;
};

export type SearchBoxAction =
  | { type: 'typed'; query: string }
  | { type: 'sent'; request: number }
  | { type: 'answered'; request: number; hits: readonly SessionSearchHit[] }
  | { type: 'failed'; request: number; error: string }
  | { type: 'move'; by: number }
  | { type: 'select'; index: number };

export const initialSearchBox: SearchBoxState = { query: '', sent: 0, shown: 0, hits: [], selected: 0, error: null };

export function searchBoxReducer(state: SearchBoxState, action: SearchBoxAction): SearchBoxState {
  switch (action.type) {
    case 'typed':
      // An empty query shows nothing, and no answer of an earlier request may show after it.
      return action.query.trim()
        ? { ...state, query: action.query }
        : { ...state, query: action.query, hits: [], shown: state.sent, selected: 0, error: null };
    case 'sent':
      return { ...state, sent: Math.max(state.sent, action.request) };
    case 'answered':
      if (action.request <= state.shown) return state;
      return { ...state, shown: action.request, hits: action.hits, selected: 0, error: null };
    case 'failed':
      if (action.request <= state.shown) return state;
      return { ...state, shown: action.request, hits: [], selected: 0, error: action.error };
    case 'move': {
      if (state.hits.length === 0) return state;
      const count = state.hits.length;
      return { ...state, selected: (((state.selected + action.by) % count) + count) % count };
    }
    case 'select':
      return action.index >= 0 && action.index < state.hits.length ? { ...state, selected: action.index } : state;
  }
}

/** Whether a request is still out for what was typed last (the hits shown answer an older one). */
export function searching(state: SearchBoxState): boolean {
  return state.query.trim() !== '' && state.shown < state.sent;
}

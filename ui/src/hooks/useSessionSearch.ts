// Runs the search box's queries: each change of the query is sent after a pause in typing (`debounceMs`), numbered,
// and its answer folded in by searchBoxReducer (an older query's answer never replaces a newer one's).
import { useCallback, useEffect, useReducer, useRef } from 'react';
import type { SessionSearchHit } from '../generated/protocol';
import { errorMessage } from '../ipc';
import { initialSearchBox, searchBoxReducer, type SearchBoxState } from '../state/searchBox';

export type SessionSearch = {
  state: SearchBoxState;
  setQuery: (query: string) => void;
  move: (by: number) => void;
  select: (index: number) => void;
};

export function useSessionSearch(
  search: (query: string) => Promise<SessionSearchHit[]>,
  debounceMs = 150,
): SessionSearch {
  const [state, dispatch] = useReducer(searchBoxReducer, initialSearchBox);
  const next = useRef(0);
  const { query } = state;
  useEffect(() => {
    if (!query.trim()) return;
    const timer = setTimeout(() => {
      const request = ++next.current;
      dispatch({ type: 'sent', request });
      search(query.trim()).then(
        (hits) => dispatch({ type: 'answered', request, hits }),
        (cause: unknown) => dispatch({ type: 'failed', request, error: errorMessage(cause) }),
      );
    }, debounceMs);
    return () => clearTimeout(timer);
  }, [query, search, debounceMs]);
  const setQuery = useCallback((text: string) => dispatch({ type: 'typed', query: text }), []);
  const move = useCallback((by: number) => dispatch({ type: 'move', by }), []);
  const select = useCallback((index: number) => dispatch({ type: 'select', index }), []);
  return { state, setQuery, move, select };
}

// The search box over every stored session of every folder (Ctrl+K): a palette above the window. Typing searches
// (after a pause, see useSessionSearch); each hit shows its session's title, folder and time and the snippet with
// the matches marked. Up/Down choose a hit, Enter (or a click) opens it, Esc closes the box.
import { useEffect, useRef, useState } from 'react';
import type { SessionSearchHit } from '../../generated/protocol';
import { baseName, formatRelativeTime } from '../../format';
import { useSessionSearch } from '../../hooks/useSessionSearch';
import { searching } from '../../state/searchBox';
import { Modal, ModalTitle } from '../dialogs/Modal';

export type SearchBoxProps = {
  search: (query: string) => Promise<SessionSearchHit[]>;
  onOpen: (hit: SessionSearchHit) => void;
  onClose: () => void;
  /** The pause in typing before a query is sent, in ms. */
  debounceMs?: number;
};

const KINDS: Record<string, string> = {
  prompt: 'Prompt',
  answer: 'Answer',
  tool_input: 'Tool call',
  tool_result: 'Tool result',
  sub_agent: 'Sub-agent',
};

export function SearchBox({ search, onOpen, onClose, debounceMs }: SearchBoxProps) {
  const { state, setQuery, move, select } = useSessionSearch(search, debounceMs);
  const inputRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const [now] = useState(() => Date.now());
  const { hits, selected } = state;
  useEffect(() => {
    listRef.current?.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [selected, hits]);
  const busy = searching(state);
  const empty = state.query.trim() !== '' && !busy && hits.length === 0 && !state.error && state.shown > 0;

  return (
    <Modal className="search-box" backdropClassName="search-backdrop" onEscape={onClose} initialFocus={inputRef} data-testid="search-box">
      <ModalTitle className="visually-hidden">Search all sessions</ModalTitle>
      <input
        ref={inputRef}
        className="search-box-input"
        data-testid="search-box-input"
        type="search"
        placeholder="Search everything said in every session"
        aria-label="Search all sessions"
        aria-controls="search-box-hits"
        aria-activedescendant={hits[selected] ? `search-hit-${selected}` : undefined}
        value={state.query}
        onChange={(event) => setQuery(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') {
            event.preventDefault();
            move(1);
          } else if (event.key === 'ArrowUp') {
            event.preventDefault();
            move(-1);
          } else if (event.key === 'Enter') {
            event.preventDefault();
            const hit = hits[selected];
            if (hit) onOpen(hit);
          }
        }}
      />
      <div className="search-box-status dim" data-testid="search-box-status" aria-live="polite">
        {state.error ?? (busy ? 'Searching…' : empty ? `Nothing said in any session matches “${state.query.trim()}”` : '')}
      </div>
      <ul className="search-box-hits" id="search-box-hits" role="listbox" ref={listRef} aria-label="Hits" data-busy={busy}>
        {hits.map((hit, index) => (
          <li
            key={`${hit.session_id}:${hit.seq}`}
            id={`search-hit-${index}`}
            role="option"
            aria-selected={index === selected}
            className={`search-hit${index === selected ? ' is-selected' : ''}`}
            data-testid="search-hit"
            data-session-id={hit.session_id}
            data-seq={hit.seq}
            onMouseMove={() => index !== selected && select(index)}
            onClick={() => onOpen(hit)}
          >
            <div className="search-hit-head">
              <span className="search-hit-title">{hit.title || 'Untitled session'}</span>
              <span className="search-hit-meta dim">
                {KINDS[hit.kind] ?? hit.kind} · <span title={hit.folder}>{baseName(hit.folder)}</span> ·{' '}
                {formatRelativeTime(hit.updated_at_ms, now)}
              </span>
            </div>
            <div className="search-hit-snippet" data-testid="search-hit-snippet">
              {hit.snippet.map((part, at) => (part.matched ? <mark key={at}>{part.text}</mark> : <span key={at}>{part.text}</span>))}
            </div>
          </li>
        ))}
      </ul>
      <div className="search-box-keys dim">
        <kbd>↑</kbd> <kbd>↓</kbd> choose · <kbd>Enter</kbd> open · <kbd>Esc</kbd> close
      </div>
    </Modal>
  );
}

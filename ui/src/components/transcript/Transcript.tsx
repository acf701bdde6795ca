// The session's transcript: a virtualised list of rows (only what is on screen is in the DOM),
// measured as rendered, that follows the bottom while streaming unless the user scrolled up. A new
// prompt (the person just sent it) brings the view back to the bottom and follows its turn. `focusSeq` (a search
// hit opened) scrolls to the row holding the text that starts at that event and highlights it briefly.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useStickToBottom } from '../../hooks/useStickToBottom';
import { ExpansionContext, useExpansionState } from '../../state/expansion';
import { buildRows } from '../../state/rows';
import { itemForSeq, rowOfItem } from '../../state/seek';
import type { TranscriptItem } from '../../state/transcript';
import { TranscriptRow } from './TranscriptRow';

export type TranscriptProps = {
  items: readonly TranscriptItem[];
  /** Shown when there is nothing yet. */
  empty?: ReactNode;
  /** Shown after the last row (e.g. a "working" line while a turn runs). */
  footer?: ReactNode;
  /** The event to scroll to (a search hit's), once its item is in `items`; `onFocused` says it was shown. */
  focusSeq?: number | null;
  onFocused?: () => void;
};

/** How long the row a search hit opened stays highlighted, in ms. */
const FOUND_MS = 2400;

export function Transcript({ items, empty, footer, focusSeq = null, onFocused }: TranscriptProps) {
  const rows = useMemo(() => buildRows(items), [items]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const contentRef = useRef<HTMLDivElement>(null);
  const expansion = useExpansionState();
  const { pinned, onScroll, scrollToBottom, release } = useStickToBottom(scrollRef, contentRef);
  const [found, setFound] = useState<string | null>(null);
  const lastPrompt = useMemo(() => items.findLast((item) => item.kind === 'user')?.key ?? null, [items]);
  const seenPrompt = useRef(lastPrompt);
  useEffect(() => {
    if (lastPrompt === seenPrompt.current) return;
    seenPrompt.current = lastPrompt;
    scrollToBottom();
  }, [lastPrompt, scrollToBottom]);

  // The virtualiser's API is not memoisable by design; this component owns it.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 44,
    getItemKey: (index) => rows[index]?.key ?? index,
    overscan: 8,
  });

  useEffect(() => {
    if (focusSeq === null) return;
    const key = itemForSeq(items, focusSeq);
    const index = key === null ? -1 : rowOfItem(rows, key);
    if (index < 0) return;
    release();
    virtualizer.scrollToIndex(index, { align: 'center' });
    setFound(rows[index]?.key ?? null);
    onFocused?.();
  }, [focusSeq, items, rows, release, virtualizer, onFocused]);
  useEffect(() => {
    if (found === null) return;
    const timer = setTimeout(() => setFound(null), FOUND_MS);
    return () => clearTimeout(timer);
  }, [found]);

  return (
    <ExpansionContext.Provider value={expansion}>
      <div className="transcript-scroller" ref={scrollRef} onScroll={onScroll} data-testid="transcript">
        <div className="transcript-column" ref={contentRef}>
          {rows.length === 0 && empty}
          <div className="transcript-rows" style={{ height: virtualizer.getTotalSize() }}>
            {virtualizer.getVirtualItems().map((virtual) => {
              const row = rows[virtual.index];
              if (!row) return null;
              const last = virtual.index === rows.length - 1;
              return (
                <div
                  key={virtual.key}
                  className={row.key === found ? 'transcript-row is-found' : 'transcript-row'}
                  data-index={virtual.index}
                  data-found={row.key === found ? 'true' : undefined}
                  ref={virtualizer.measureElement}
                  style={{ transform: `translateY(${virtual.start}px)` }}
                >
                  <TranscriptRow row={row} />
                  {/* The footer is part of the last row: measured with it, it cannot be drawn over the row when
                      the row grows (a reason line, output) before the list has measured it again. */}
                  {last && footer}
                </div>
              );
            })}
          </div>
          {rows.length === 0 && footer}
        </div>
      </div>
      {!pinned && (
        <button type="button" className="scroll-to-bottom" data-testid="scroll-to-bottom" onClick={scrollToBottom}>
          ↓ Latest
        </button>
      )}
    </ExpansionContext.Provider>
  );
}

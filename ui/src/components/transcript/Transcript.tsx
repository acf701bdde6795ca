// The session's transcript: a virtualised list of rows (only what is on screen is in the DOM),
// measured as rendered, that follows the bottom while streaming unless the user scrolled up. A new
// prompt (the person just sent it) brings the view back to the bottom and follows its turn.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import { useStickToBottom } from '../../hooks/useStickToBottom';
import { ExpansionContext, useExpansionState } from '../../state/expansion';
import { buildRows } from '../../state/rows';
import type { TranscriptItem } from '../../state/transcript';
import { TranscriptRow } from './TranscriptRow';

export type TranscriptProps = {
  items: readonly TranscriptItem[];
  /** Shown when there is nothing yet. */
  empty?: ReactNode;
  /** Shown after the last row (e.g. a "working" line while a turn runs). */
  footer?: ReactNode;
};

export function Transcript({ items, empty, footer }: TranscriptProps) {
  const rows = useMemo(() => buildRows(items), [items]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const contentRef = useRef<HTMLDivElement>(null);
  const expansion = useExpansionState();
  const { pinned, onScroll, scrollToBottom } = useStickToBottom(scrollRef, contentRef);
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
                  className="transcript-row"
                  data-index={virtual.index}
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

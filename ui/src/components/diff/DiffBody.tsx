// A scrollable, virtualised diff (unified or side by side): only the rows on screen are in the
// DOM, so a 5,000-line file scrolls as smoothly as a 50-line one. Long unchanged runs are folded;
// the user opens a fold with its expander. Long lines wrap; rows are measured as drawn.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useMemo, useRef, useState, type ReactNode } from 'react';
import { foldLines } from '../../diff/fold';
import type { DiffModel } from '../../diff/model';
import { splitRows } from '../../diff/split';
import { FoldRow, SplitPair, UnifiedLine } from './DiffRows';

export type DiffViewMode = 'split' | 'unified';

export type DiffBodyProps = {
  model: DiffModel;
  view: DiffViewMode;
  className?: string;
};

/** The height of one unwrapped row, px (matches .diff-line in diff.css). */
const ROW_HEIGHT = 20;

export function DiffBody({ model, view, className = '' }: DiffBodyProps) {
  const [opened, setOpened] = useState<ReadonlySet<number>>(new Set());
  const unified = useMemo(() => foldLines(model.lines, opened), [model, opened]);
  const split = useMemo(() => (view === 'split' ? splitRows(unified, model.lines) : null), [view, unified, model]);
  const count = split ? split.length : unified.length;
  const scrollRef = useRef<HTMLDivElement>(null);
  const expand = useCallback((id: number) => setOpened((previous) => new Set(previous).add(id)), []);

  // The virtualiser's API is not memoisable by design; this component owns it.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    // Without layout (tests) an element measures 0: keep the estimate then.
    measureElement: (element) => element.getBoundingClientRect().height || ROW_HEIGHT,
    overscan: 10,
  });

  const digits = useMemo(() => String(Math.max(1, ...lastNumbers(model))).length, [model]);
  return (
    <div
      ref={scrollRef}
      className={`diff-body diff-view-${view} ${className}`}
      data-testid="diff-body"
      data-view={view}
      style={{ ['--diff-digits' as string]: digits }}
    >
      {model.lines.length === 0 && <div className="diff-empty-file">Empty file</div>}
      <div className="diff-rows" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((virtual) => {
          let content: ReactNode = null;
          if (split) {
            const row = split[virtual.index];
            if (row?.kind === 'fold') content = <FoldRow model={model} fold={row.fold} onExpand={expand} />;
            else if (row) content = <SplitPair model={model} left={row.left} right={row.right} />;
          } else {
            const row = unified[virtual.index];
            if (row?.kind === 'fold') content = <FoldRow model={model} fold={row.fold} onExpand={expand} />;
            else if (row) content = <UnifiedLine model={model} index={row.index} />;
          }
          return (
            <div
              key={virtual.key}
              className="diff-row"
              data-index={virtual.index}
              ref={virtualizer.measureElement}
              style={{ transform: `translateY(${virtual.start}px)` }}
            >
              {content}
            </div>
          );
        })}
      </div>
    </div>
  );
}

function lastNumbers(model: DiffModel): number[] {
  let oldMax = 0;
  let newMax = 0;
  for (const line of model.lines) {
    if (line.oldNo) oldMax = line.oldNo;
    if (line.newNo) newMax = line.newNo;
  }
  return [oldMax, newMax];
}

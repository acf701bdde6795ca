// Folding of long unchanged runs: the rows a diff view shows, with a few context lines kept
// around each change and the rest of a run folded into an expander row. Which folds the user
// opened is passed in, so the same function serves the dialog and the transcript.
import type { DiffLine } from './lines';

/** Unchanged lines kept on each side of a change. */
export const CONTEXT_LINES = 3;
/** A run is folded only when it would hide at least this many lines. */
const MIN_FOLDED = 4;

export type Fold = {
  /** Stable id: the index of the first hidden line. */
  id: number;
  /** Indices into the diff's lines, [start, end). */
  start: number;
  end: number;
};

/** An index into the diff's lines, or a fold. */
export type UnifiedRow = { kind: 'line'; index: number } | { kind: 'fold'; fold: Fold };

export function foldLines(lines: readonly DiffLine[], opened: ReadonlySet<number>): UnifiedRow[] {
  const rows: UnifiedRow[] = [];
  let i = 0;
  while (i < lines.length) {
    if (lines[i]?.kind !== 'context') {
      rows.push({ kind: 'line', index: i });
      i += 1;
      continue;
    }
    let end = i;
    while (end < lines.length && lines[end]?.kind === 'context') end += 1;
    const keepBefore = i === 0 ? 0 : CONTEXT_LINES;
    const keepAfter = end === lines.length ? 0 : CONTEXT_LINES;
    const start = i + keepBefore;
    const stop = end - keepAfter;
    if (stop - start >= MIN_FOLDED && !opened.has(start)) {
      for (let k = i; k < start; k += 1) rows.push({ kind: 'line', index: k });
      rows.push({ kind: 'fold', fold: { id: start, start, end: stop } });
      for (let k = stop; k < end; k += 1) rows.push({ kind: 'line', index: k });
    } else {
      for (let k = i; k < end; k += 1) rows.push({ kind: 'line', index: k });
    }
    i = end;
  }
  return rows;
}

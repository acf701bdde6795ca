// The hunks of a proposed change (maximal runs of changed lines, numbered from 1 in display order)
// and the file rebuilt from the hunks the person accepted: a rejected hunk keeps the old lines, an
// accepted one takes the new. Line endings follow the proposal (CRLF when it uses them).
import type { DiffLine } from './lines';

export type Hunk = {
  /** 1-based, as the dialog shows it and the agent is told. */
  number: number;
  /** Index of the hunk's first and one past its last line in the diff's `lines`. */
  start: number;
  end: number;
  added: number;
  removed: number;
  /** The first new-text line number at or after the hunk (for "line N"). */
  line: number;
};

export function findHunks(lines: readonly DiffLine[]): Hunk[] {
  const hunks: Hunk[] = [];
  let index = 0;
  let nextNew = 1;
  while (index < lines.length) {
    const line = lines[index];
    if (!line) break;
    if (line.kind === 'context') {
      nextNew = (line.newNo ?? nextNew) + 1;
      index += 1;
      continue;
    }
    const start = index;
    let added = 0;
    let removed = 0;
    let first: number | null = null;
    while (index < lines.length && lines[index]?.kind !== 'context') {
      const changed = lines[index];
      if (changed?.kind === 'add') {
        added += 1;
        first ??= changed.newNo;
      } else removed += 1;
      index += 1;
    }
    hunks.push({ number: hunks.length + 1, start, end: index, added, removed, line: first ?? nextNew });
  }
  return hunks;
}

/**
 * The file with only the accepted hunks applied. `oldText`/`newText` are the proposal's two sides
 * and `lines` their diff (see computeLineDiff).
 */
export function rebuildText(
  oldText: string,
  newText: string,
  lines: readonly DiffLine[],
  hunks: readonly Hunk[],
  rejected: ReadonlySet<number>,
): string {
  if (rejected.size === 0) return newText;
  const out: string[] = [];
  let lastFromOld = false;
  let hunk = 0;
  for (let index = 0; index < lines.length; ) {
    const current = hunks[hunk];
    if (current && index === current.start) {
      const keepOld = rejected.has(current.number);
      for (let i = current.start; i < current.end; i += 1) {
        const line = lines[i];
        if (line && line.kind === (keepOld ? 'del' : 'add')) {
          out.push(line.text);
          lastFromOld = keepOld;
        }
      }
      index = current.end;
      hunk += 1;
      continue;
    }
    const line = lines[index];
    if (line) {
      out.push(line.text);
      lastFromOld = false;
    }
    index += 1;
  }
  const eol = newText.includes('\r\n') || (!newText.includes('\n') && oldText.includes('\r\n')) ? '\r\n' : '\n';
  // The file ends as the side its end came from: the old one when the hunk at the very end was rejected.
  const last = hunks[hunks.length - 1];
  const tailRejected = last !== undefined && last.end === lines.length && rejected.has(last.number);
  const source = tailRejected || lastFromOld ? oldText : newText;
  const finalNewline = source.endsWith('\n');
  if (out.length === 0) return '';
  return out.join(eol) + (finalNewline ? eol : '');
}

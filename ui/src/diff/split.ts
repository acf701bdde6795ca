// The side-by-side arrangement of unified rows: context lines sit on both sides, and in each change
// block the deleted lines (left) face the added lines (right) one to one; the shorter side is
// padded with empty cells.
import type { UnifiedRow } from './fold';
import type { DiffLine } from './lines';

export type SplitRow =
  | { kind: 'pair'; left: number | null; right: number | null }
  | { kind: 'fold'; fold: Extract<UnifiedRow, { kind: 'fold' }>['fold'] };

export function splitRows(rows: readonly UnifiedRow[], lines: readonly DiffLine[]): SplitRow[] {
  const out: SplitRow[] = [];
  let dels: number[] = [];
  let adds: number[] = [];
  const flush = () => {
    const count = Math.max(dels.length, adds.length);
    for (let k = 0; k < count; k += 1) out.push({ kind: 'pair', left: dels[k] ?? null, right: adds[k] ?? null });
    dels = [];
    adds = [];
  };
  for (const row of rows) {
    if (row.kind === 'fold') {
      flush();
      out.push(row);
      continue;
    }
    const kind = lines[row.index]?.kind;
    if (kind === 'del') {
      if (adds.length) flush();
      dels.push(row.index);
    } else if (kind === 'add') {
      adds.push(row.index);
    } else {
      flush();
      out.push({ kind: 'pair', left: row.index, right: row.index });
    }
  }
  flush();
  return out;
}

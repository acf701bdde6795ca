// Merges a line's syntax tokens with its word-level change ranges: tokens are cut at range
// boundaries so each piece knows both its highlight classes and whether it is a changed word.
import type { Token } from './highlight';
import type { Range } from './words';

export type Piece = Token & { changed: boolean };

export function markTokens(tokens: readonly Token[], ranges: readonly Range[]): Piece[] {
  if (ranges.length === 0) return tokens.map((token) => ({ ...token, changed: false }));
  const pieces: Piece[] = [];
  let offset = 0;
  let r = 0;
  for (const token of tokens) {
    const end = offset + token.text.length;
    let at = offset;
    while (at < end) {
      while (r < ranges.length && (ranges[r]?.end ?? 0) <= at) r += 1;
      const range = ranges[r];
      let stop: number;
      let changed: boolean;
      if (!range || range.start >= end) {
        stop = end;
        changed = false;
      } else if (range.start > at) {
        stop = range.start;
        changed = false;
      } else {
        stop = Math.min(range.end, end);
        changed = true;
      }
      pieces.push({ text: token.text.slice(at - offset, stop - offset), className: token.className, changed });
      at = stop;
    }
    offset = end;
  }
  return pieces;
}

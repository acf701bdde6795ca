// Word-level changes inside a changed line, from jsdiff's `diffWordsWithSpace`: the character
// ranges that differ between a deleted line and the added line paired with it. Lines that share
// too little are left unmarked (the whole line is the change), as code review tools do.
import { diffWordsWithSpace } from 'diff';

export type Range = { start: number; end: number };
export type WordRanges = { old: Range[]; new: Range[] };

/** Longer lines are not compared word by word (cost, and little value). */
const MAX_LINE = 1000;
/** If less than this share of the characters is common, marking words says nothing. */
const MIN_COMMON = 0.4;

export function wordRanges(oldLine: string, newLine: string): WordRanges | null {
  if (oldLine.length > MAX_LINE || newLine.length > MAX_LINE) return null;
  const changes = diffWordsWithSpace(oldLine, newLine);
  const result: WordRanges = { old: [], new: [] };
  let oldAt = 0;
  let newAt = 0;
  let common = 0;
  for (const change of changes) {
    const length = change.value.length;
    if (change.removed) {
      result.old.push({ start: oldAt, end: oldAt + length });
      oldAt += length;
    } else if (change.added) {
      result.new.push({ start: newAt, end: newAt + length });
      newAt += length;
    } else {
      common += length;
      oldAt += length;
      newAt += length;
    }
  }
  const longest = Math.max(oldLine.length, newLine.length);
  if (longest === 0 || common / longest < MIN_COMMON) return null;
  return result;
}

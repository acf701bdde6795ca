// The line diff of a file change, computed with jsdiff (`diffArrays` over the two texts' lines):
// a flat list of context / deleted / added lines with their old and new line numbers. A deleted
// line and the added line at the same position in one change block are paired, so their
// word-level changes can be marked. Pure; no rendering here.
import { diffArrays } from 'diff';

export type LineKind = 'context' | 'del' | 'add';

export type DiffLine = {
  kind: LineKind;
  /** 1-based line number in the old text (null for an added line). */
  oldNo: number | null;
  /** 1-based line number in the new text (null for a deleted line). */
  newNo: number | null;
  text: string;
  /** Index in the diff's `lines` of the line this one replaces or is replaced by, if any. */
  pair: number | null;
};

export type LineDiff = {
  lines: DiffLine[];
  added: number;
  removed: number;
};

/** Beyond this many edits jsdiff gives up and the change shows as "all removed, all added". */
const MAX_EDIT_LENGTH = 4000;
/** A diff that takes longer than this (ms) is abandoned the same way. */
const TIMEOUT_MS = 400;

/** Splits text into lines; a final newline does not make an extra empty line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export function computeLineDiff(oldText: string, newText: string): LineDiff {
  const oldLines = splitLines(oldText);
  const newLines = splitLines(newText);
  const changes = diffArrays(oldLines, newLines, { maxEditLength: MAX_EDIT_LENGTH, timeout: TIMEOUT_MS }) ?? [
    { value: oldLines, removed: true, added: false, count: oldLines.length },
    { value: newLines, removed: false, added: true, count: newLines.length },
  ];
  const lines: DiffLine[] = [];
  let oldNo = 1;
  let newNo = 1;
  let added = 0;
  let removed = 0;
  // Start of the current run of deleted lines, and how many of them were paired with additions.
  let delStart = -1;
  let delCount = 0;
  let paired = 0;
  for (const change of changes) {
    if (change.removed) {
      if (delStart < 0 || paired > 0) {
        delStart = lines.length;
        delCount = 0;
        paired = 0;
      }
      for (const text of change.value) {
        lines.push({ kind: 'del', oldNo: oldNo++, newNo: null, text, pair: null });
        delCount += 1;
        removed += 1;
      }
    } else if (change.added) {
      for (const text of change.value) {
        const index = lines.length;
        const partner = delStart >= 0 && paired < delCount ? delStart + paired : null;
        lines.push({ kind: 'add', oldNo: null, newNo: newNo++, text, pair: partner });
        if (partner !== null) {
          const del = lines[partner];
          if (del) del.pair = index;
          paired += 1;
        }
        added += 1;
      }
      delStart = -1;
    } else {
      delStart = -1;
      for (const text of change.value) {
        lines.push({ kind: 'context', oldNo: oldNo++, newNo: newNo++, text, pair: null });
      }
    }
  }
  return { lines, added, removed };
}

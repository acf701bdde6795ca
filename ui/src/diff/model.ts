// Everything a diff view needs about one file change, built once per change: the line diff, the
// lazily highlighted lines of both texts, the language, and word-level ranges computed on demand (only
// for lines that are actually drawn) and cached.
import type { HLJSApi } from 'highlight.js';
import type { FileDiff } from '../generated/protocol';
import { lazyHighlighter, languageFor, type TokenLine } from './highlight';
import { computeLineDiff, splitLines, type DiffLine } from './lines';
import { wordRanges, type Range } from './words';

export type DiffModel = {
  path: string;
  isNewFile: boolean;
  language: string | null;
  lines: DiffLine[];
  added: number;
  removed: number;
  /** The longest line, in characters (for the code column's width). */
  longest: number;
  /** Syntax tokens of a diff line. */
  tokens: (line: DiffLine) => TokenLine;
  /** The changed character ranges inside a paired line (empty when unpaired or too different). */
  changedRanges: (index: number) => Range[];
};

/** The model of `diff`, its lines coloured by `hljs` when given (see `useHighlighter`). */
export function buildDiffModel(diff: FileDiff, hljs: HLJSApi | null): DiffModel {
  const { lines, added, removed } = computeLineDiff(diff.old_text, diff.new_text);
  const language = languageFor(diff.path, hljs);
  const oldLines = splitLines(diff.old_text);
  const newLines = splitLines(diff.new_text);
  // Context lines take their tokens from the new text; the old text is only drawn for deletions.
  const oldTokens = lazyHighlighter(oldLines, language, hljs);
  const newTokens = lazyHighlighter(newLines, language, hljs);
  const cache = new Map<number, Range[]>();
  let longest = 0;
  for (const line of lines) longest = Math.max(longest, line.text.length);

  const tokens = (line: DiffLine): TokenLine => {
    return line.kind === 'del' ? oldTokens((line.oldNo ?? 1) - 1) : newTokens((line.newNo ?? 1) - 1);
  };

  const changedRanges = (index: number): Range[] => {
    const cached = cache.get(index);
    if (cached) return cached;
    const line = lines[index];
    const partner = line?.pair != null ? lines[line.pair] : undefined;
    let ranges: Range[] = [];
    if (line && partner) {
      const words = line.kind === 'del' ? wordRanges(line.text, partner.text) : wordRanges(partner.text, line.text);
      ranges = words ? (line.kind === 'del' ? words.old : words.new) : [];
    }
    cache.set(index, ranges);
    return ranges;
  };

  return { path: diff.path, isNewFile: diff.is_new_file, language, lines, added, removed, longest, tokens, changedRanges };
}

// Tests of the diff model: line diff and pairing, folding, side-by-side rows, word ranges, hunks,
// highlight splitting and the merge of tokens with word marks.
import hljs from 'highlight.js/lib/common';
import { describe, expect, it } from 'vitest';
import { foldLines } from './fold';
import { htmlToLines, languageFor } from './highlight';
import { findHunks, rebuildText } from './hunks';
import { computeLineDiff, splitLines } from './lines';
import { markTokens } from './marks';
import { buildDiffModel } from './model';
import { splitRows } from './split';
import { wordRanges } from './words';

const numbered = (count: number, prefix = 'line') => Array.from({ length: count }, (_, i) => `${prefix} ${i + 1}`);

describe('computeLineDiff', () => {
  it('numbers lines and pairs a replaced line with its replacement', () => {
    const diff = computeLineDiff('a\nb\nc\n', 'a\nB\nc\nd\n');
    expect(diff.lines.map((line) => `${line.kind}:${line.oldNo ?? '-'}:${line.newNo ?? '-'}:${line.text}`)).toEqual([
      'context:1:1:a',
      'del:2:-:b',
      'add:-:2:B',
      'context:3:3:c',
      'add:-:4:d',
    ]);
    expect(diff.lines[1]?.pair).toBe(2);
    expect(diff.lines[2]?.pair).toBe(1);
    expect(diff.lines[4]?.pair).toBeNull();
    expect([diff.added, diff.removed]).toEqual([2, 1]);
  });

  it('treats a new file as all added', () => {
    const diff = computeLineDiff('', 'x\ny');
    expect(diff.lines.map((line) => line.kind)).toEqual(['add', 'add']);
  });

  it('does not count a final newline as a line, and ignores CRLF', () => {
    expect(splitLines('a\r\nb\r\n')).toEqual(['a', 'b']);
    expect(splitLines('')).toEqual([]);
  });
});

describe('foldLines', () => {
  const lines = computeLineDiff(numbered(100).join('\n'), numbered(100).map((l, i) => (i === 49 ? 'changed' : l)).join('\n')).lines;

  it('keeps three lines of context around a change and folds the rest', () => {
    const rows = foldLines(lines, new Set());
    const folds = rows.filter((row) => row.kind === 'fold');
    expect(folds).toHaveLength(2);
    expect(rows).toHaveLength(2 + 3 + 2 + 3);
  });

  it('an opened fold shows its lines', () => {
    const first = foldLines(lines, new Set()).find((row) => row.kind === 'fold');
    if (first?.kind !== 'fold') throw new Error('no fold');
    const rows = foldLines(lines, new Set([first.fold.id]));
    expect(rows.filter((row) => row.kind === 'fold')).toHaveLength(1);
  });

  it('does not fold short runs', () => {
    const short = computeLineDiff('a\nb\nc\nd\ne', 'a\nb\nX\nd\ne').lines;
    expect(foldLines(short, new Set()).every((row) => row.kind === 'line')).toBe(true);
  });
});

describe('splitRows', () => {
  it('puts deletions left and additions right, padding the shorter side', () => {
    const diff = computeLineDiff('a\nb\nc\nz', 'a\nB\nz');
    const rows = splitRows(foldLines(diff.lines, new Set()), diff.lines);
    expect(rows).toEqual([
      { kind: 'pair', left: 0, right: 0 },
      { kind: 'pair', left: 1, right: 3 },
      { kind: 'pair', left: 2, right: null },
      { kind: 'pair', left: 4, right: 4 },
    ]);
  });
});

describe('wordRanges', () => {
  it('marks the changed word on both sides', () => {
    expect(wordRanges('let x = old_value;', 'let x = new_value;')).toEqual({
      old: [{ start: 8, end: 17 }],
      new: [{ start: 8, end: 17 }],
    });
  });

  it('marks nothing when the lines have little in common', () => {
    expect(wordRanges('alpha beta gamma', 'completely different text here')).toBeNull();
  });
});

describe('highlighting', () => {
  it('knows languages by extension and file name', () => {
    expect(languageFor('/p/src/main.rs', hljs)).toBe('rust');
    expect(languageFor('App.tsx', hljs)).toBe('typescript');
    expect(languageFor('Cargo.toml', hljs)).toBe('ini');
    expect(languageFor('Makefile', hljs)).toBe('makefile');
    expect(languageFor('notes.unknownext', hljs)).toBeNull();
  });

  it('leaves every file plain until highlight.js has loaded', () => {
    expect(languageFor('/p/src/main.rs', null)).toBeNull();
    const model = buildDiffModel({ path: 'a.rs', old_text: 'fn a() {}\n', new_text: 'fn b() {}\n', is_new_file: false }, null);
    expect(model.tokens(model.lines[0]!)).toEqual([{ text: model.lines[0]!.text, className: '' }]);
  });

  it('cuts highlight.js html into lines, carrying open spans across breaks', () => {
    const lines = htmlToLines('<span class="hljs-comment">/* a\nb */</span> x &lt; y');
    expect(lines).toEqual([
      [{ text: '/* a', className: 'hljs-comment' }],
      [
        { text: 'b */', className: 'hljs-comment' },
        { text: ' x < y', className: '' },
      ],
    ]);
  });
});

describe('markTokens', () => {
  it('cuts tokens at range boundaries', () => {
    const pieces = markTokens(
      [
        { text: 'let ', className: 'k' },
        { text: 'value', className: '' },
      ],
      [{ start: 2, end: 6 }],
    );
    expect(pieces.map((p) => `${p.text}|${p.className}|${p.changed ? '*' : ''}`)).toEqual([
      'le|k|',
      't |k|*',
      'va||*',
      'lue||',
    ]);
  });
});

describe('buildDiffModel', () => {
  it('builds a 5,000-line diff', () => {
    const old = numbered(5000, 'const value = compute(index)');
    const next = old.map((line, i) => (i % 700 === 0 ? `${line} // edited` : line));
    const model = buildDiffModel({ path: 'big.ts', old_text: old.join('\n'), new_text: next.join('\n'), is_new_file: false }, hljs);
    expect(model.added).toBe(8);
    expect(model.removed).toBe(8);
    expect(model.changedRanges(model.lines.findIndex((line) => line.kind === 'add'))).toEqual([{ start: 30, end: 40 }]);
  });
});

describe('hunks', () => {
  const old = 'a\nb\nc\nd\ne\nf\ng\n';
  const proposed = 'a\nB\nc\nd\ne\nf\nG\nh\n';
  const { lines } = computeLineDiff(old, proposed);
  const hunks = findHunks(lines);

  it('numbers the runs of changed lines from 1, with their size and line', () => {
    expect(hunks.map((h) => [h.number, h.added, h.removed, h.line])).toEqual([
      [1, 1, 1, 2],
      [2, 2, 1, 7],
    ]);
  });

  it('rebuilds the file from the accepted hunks', () => {
    expect(rebuildText(old, proposed, lines, hunks, new Set())).toBe(proposed);
    expect(rebuildText(old, proposed, lines, hunks, new Set([1]))).toBe('a\nb\nc\nd\ne\nf\nG\nh\n');
    expect(rebuildText(old, proposed, lines, hunks, new Set([2]))).toBe('a\nB\nc\nd\ne\nf\ng\n');
    expect(rebuildText(old, proposed, lines, hunks, new Set([1, 2]))).toBe(old);
  });

  it('keeps CRLF endings and a missing final newline of the side a line came from', () => {
    const crlfOld = 'x\r\ny\r\nz';
    const crlfNew = 'x\r\nY\r\nz\r\nw\r\n';
    const diff = computeLineDiff(crlfOld, crlfNew).lines;
    const parts = findHunks(diff);
    expect(parts).toHaveLength(2);
    expect(rebuildText(crlfOld, crlfNew, diff, parts, new Set([2]))).toBe('x\r\nY\r\nz');
    expect(rebuildText(crlfOld, crlfNew, diff, parts, new Set([1]))).toBe('x\r\ny\r\nz\r\nw\r\n');
  });

  it('treats a new file as one hunk', () => {
    const diff = computeLineDiff('', 'one\ntwo\n').lines;
    expect(findHunks(diff)).toEqual([{ number: 1, start: 0, end: 2, added: 2, removed: 0, line: 1 }]);
  });
});

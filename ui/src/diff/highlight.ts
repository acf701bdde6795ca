// Syntax highlighting for diffs: the highlight.js language for a file name, and a text's lines
// as tokens (text + highlight.js classes), highlighted lazily in blocks of lines when a line is
// first drawn. A block is highlighted as a whole, so multi-line constructs (block comments,
// strings) come out right except across a block boundary; a 5,000-line file opens without
// highlighting the lines no one looks at.
import type { HLJSApi } from 'highlight.js';

export type Token = { text: string; className: string };
export type TokenLine = Token[];

/** Lines highlighted together. */
const BLOCK = 200;
/** Blocks longer than this many characters are left plain (minified code and the like). */
const MAX_BLOCK_CHARS = 200_000;

const BY_EXTENSION: Record<string, string> = {
  tsx: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  rs: 'rust',
  toml: 'ini',
  lock: 'ini',
  yml: 'yaml',
  md: 'markdown',
  htm: 'xml',
  html: 'xml',
  svg: 'xml',
  vue: 'xml',
  h: 'c',
  hpp: 'cpp',
  cc: 'cpp',
  sh: 'bash',
  zsh: 'bash',
  ipynb: 'json',
};

const BY_NAME: Record<string, string> = {
  Dockerfile: 'dockerfile',
  Makefile: 'makefile',
  'CMakeLists.txt': 'cmake',
};

/** The highlight.js language for a path, or null when none is known (or highlight.js is not loaded). */
export function languageFor(path: string, hljs: HLJSApi | null): string | null {
  if (!hljs) return null;
  const name = path.split(/[\\/]/).pop() ?? path;
  const byName = BY_NAME[name];
  if (byName && hljs.getLanguage(byName)) return byName;
  const dot = name.lastIndexOf('.');
  if (dot < 0) return null;
  const extension = name.slice(dot + 1).toLowerCase();
  const language = BY_EXTENSION[extension] ?? extension;
  return hljs.getLanguage(language) ? language : null;
}

export type LineTokens = (index: number) => TokenLine;

/**
 * A function giving the tokens of line `index` (0-based) of `lines`, highlighted as `language` (plain
 * without a language or without highlight.js).
 */
export function lazyHighlighter(lines: readonly string[], language: string | null, hljs: HLJSApi | null): LineTokens {
  const plain = (index: number): TokenLine => [{ text: lines[index] ?? '', className: '' }];
  if (!language || !hljs) return plain;
  const blocks = new Map<number, TokenLine[] | null>();
  return (index) => {
    const block = Math.floor(index / BLOCK);
    let tokens = blocks.get(block);
    if (tokens === undefined) {
      const code = lines.slice(block * BLOCK, (block + 1) * BLOCK).join('\n');
      tokens = code.length > MAX_BLOCK_CHARS ? null : htmlToLines(hljs.highlight(code, { language, ignoreIllegals: true }).value);
      blocks.set(block, tokens);
    }
    return tokens?.[index - block * BLOCK] ?? plain(index);
  };
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#x27;': "'", '&#39;': "'" };

/**
 * Cuts highlight.js output (text with nested `<span class="…">`) into lines of tokens; a span
 * open across a line break carries its classes onto the next line.
 */
export function htmlToLines(html: string): TokenLine[] {
  const lines: TokenLine[] = [[]];
  const stack: string[] = [];
  const pattern = /<span class="([^"]*)">|<\/span>|([^<]+)/g;
  for (let match = pattern.exec(html); match; match = pattern.exec(html)) {
    const [whole, className, raw] = match;
    if (className !== undefined) stack.push(className);
    else if (whole === '</span>') stack.pop();
    else if (raw !== undefined) {
      const text = raw.replace(/&(?:amp|lt|gt|quot|#x27|#39);/g, (entity) => ENTITIES[entity] ?? entity);
      const parts = text.split('\n');
      parts.forEach((part, index) => {
        if (index > 0) lines.push([]);
        if (part) lines[lines.length - 1]?.push({ text: part, className: stack.join(' ') });
      });
    }
  }
  return lines;
}

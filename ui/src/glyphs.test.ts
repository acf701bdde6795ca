// Every character the UI's sources draw is covered by the fonts it bundles (Inter and JetBrains
// Mono, Latin subset, imported in main.tsx), so nothing depends on a font the machine may lack.
// Icons are inline SVG (components/common/Icon.tsx). Comments are not drawn and are skipped.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(__dirname);
const fontsource = join(__dirname, '..', 'node_modules', '@fontsource');

/** The code points of a fontsource subset, from its `unicode.json` ("U+0000-00FF,U+2191,…"). */
function subsetRanges(font: string, subset: string): Array<[number, number]> {
  const table = JSON.parse(readFileSync(join(fontsource, font, 'unicode.json'), 'utf8')) as Record<string, string>;
  const ranges = table[subset];
  if (!ranges) throw new Error(`@fontsource/${font} has no ${subset} subset`);
  return ranges.split(',').map((part) => {
    const [from = '', to = from] = part.trim().replace(/^U\+/, '').split('-');
    return [parseInt(from, 16), parseInt(to, 16)];
  });
}

/** Sources the webview draws from: components, state, styles (tests and generated types excluded). */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'generated' || name === 'test' ? [] : sources(path);
    return /\.(tsx?|css)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The text with its comments blanked (block comments, and `//` comments not inside a URL). */
function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, ' ').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

describe('glyphs', () => {
  const bundled = [...subsetRanges('inter', 'latin'), ...subsetRanges('jetbrains-mono', 'latin')];
  const covered = (code: number) => bundled.some(([from, to]) => code >= from && code <= to);

  it('the bundled fonts cover every character the sources draw', () => {
    const outside: string[] = [];
    for (const file of sources(root)) {
      for (const char of withoutComments(readFileSync(file, 'utf8'))) {
        const code = char.codePointAt(0) ?? 0;
        if (!covered(code)) outside.push(`${relative(root, file)}: ${char} (U+${code.toString(16).toUpperCase()})`);
      }
    }
    expect(outside, 'draw these as an inline SVG <Icon> instead').toEqual([]);
  });

  it('finds a glyph outside the bundled fonts', () => {
    expect(covered('→'.codePointAt(0) ?? 0)).toBe(false);
    expect(covered('…'.codePointAt(0) ?? 0)).toBe(true);
  });
});

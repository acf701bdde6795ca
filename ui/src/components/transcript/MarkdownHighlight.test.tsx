// Streaming re-renders an answer's markdown on every delta: code blocks stay highlighted, the
// highlighter (a highlight.js instance with its grammars) is built once, not once per render, and
// the answer cut into blocks (so only its last block is parsed again) draws as the whole would.
import { render } from '@testing-library/react';
import type rehypeHighlight from 'rehype-highlight';
import { describe, expect, it, vi } from 'vitest';

const attached = vi.hoisted(() => ({ count: 0 }));

vi.mock('rehype-highlight', async (importOriginal) => {
  const real = await importOriginal<{ default: typeof rehypeHighlight }>();
  return {
    default: (...args: Parameters<typeof rehypeHighlight>) => {
      attached.count += 1;
      return real.default(...args);
    },
  };
});

const { Markdown } = await import('./Markdown');

describe('Markdown while streaming', () => {
  it('highlights every render with one highlighter', () => {
    const code = '```rust\nfn main() {\n    let answer = 42;\n}\n```';
    const { container, rerender } = render(<Markdown text="Here" />);
    for (let length = 1; length <= code.length; length += 7) {
      rerender(<Markdown text={`Here:\n\n${code.slice(0, length)}`} />);
    }
    rerender(<Markdown text={`Here:\n\n${code}`} />);

    expect(container.querySelector('code.hljs .hljs-keyword')).toHaveTextContent('fn');
    expect(attached.count).toBe(1);
  });

  it('draws an answer cut into blocks as the whole answer would be drawn', async () => {
    const { default: ReactMarkdown } = await import('react-markdown');
    const { default: remarkGfm } = await import('remark-gfm');
    const { default: rehypeHighlight } = await import('rehype-highlight');
    const text = [
      '# Plan',
      '',
      'First a paragraph\nover two lines, with `code` and **bold**.',
      '',
      '```ts',
      'const a = 1;',
      '',
      'const b = 2;',
      '```',
      '',
      '| a | b |',
      '|---|---|',
      '| 1 | 2 |',
      '',
      '- [ ] a task',
      '- [x] done',
      '',
      '> quoted',
    ].join('\n');
    const whole = render(
      <ReactMarkdown remarkPlugins={[remarkGfm]} rehypePlugins={[[rehypeHighlight, { detect: false }]]}>
        {text}
      </ReactMarkdown>,
    ).container;
    const blocks = render(<Markdown text={text} />).container;
    const shape = (root: Element) => [...root.querySelectorAll('*')].map((element) => `${element.tagName}:${element.childElementCount}`);
    expect(shape(blocks)).toEqual(shape(whole));
    expect(blocks.textContent?.replace(/\s+/g, '')).toBe(whole.textContent?.replace(/\s+/g, ''));
  });
});

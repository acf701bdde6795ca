// Streaming re-renders an answer's markdown on every delta: code blocks stay highlighted, and the
// highlighter (a highlight.js instance with its grammars) is built once, not once per render.
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
});

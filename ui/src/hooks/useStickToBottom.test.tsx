// Tests of following the bottom: growth keeps the view at the bottom, scrolling up stops that,
// growth while scrolled up leaves the view alone, and coming back to the bottom pins it again.
import { act, render, screen } from '@testing-library/react';
import { useRef } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { useStickToBottom } from './useStickToBottom';

/** A scroller whose heights the test sets by hand (jsdom has no layout). */
function Harness() {
  const scrollRef = useRef<HTMLDivElement>(null);
  const contentRef = useRef<HTMLDivElement>(null);
  const { pinned, onScroll } = useStickToBottom(scrollRef, contentRef);
  return (
    <div ref={scrollRef} data-testid="scroller" data-pinned={pinned} onScroll={onScroll}>
      <div ref={contentRef} />
    </div>
  );
}

describe('useStickToBottom', () => {
  it('follows growth until the user scrolls up, then again from the bottom', () => {
    let grow: () => void = () => {};
    vi.stubGlobal(
      'ResizeObserver',
      class {
        constructor(callback: () => void) {
          grow = callback;
        }
        observe() {}
        disconnect() {}
      },
    );
    render(<Harness />);
    const scroller = screen.getByTestId('scroller');
    let height = 2000;
    Object.defineProperty(scroller, 'scrollHeight', { get: () => height });
    // clientHeight is 800 in the test setup.

    const grew = (to: number) => {
      height = to;
      act(() => {
        grow();
      });
    };
    const userScrolls = (top: number) => {
      scroller.scrollTop = top;
      act(() => {
        scroller.dispatchEvent(new Event('scroll'));
      });
    };

    grew(2000);
    expect(scroller.scrollTop).toBe(2000);
    grew(2600);
    expect(scroller.scrollTop).toBe(2600);
    expect(scroller.dataset.pinned).toBe('true');

    userScrolls(1000);
    expect(scroller.dataset.pinned).toBe('false');
    grew(3000);
    expect(scroller.scrollTop).toBe(1000);

    userScrolls(3000 - 800);
    expect(scroller.dataset.pinned).toBe('true');
    grew(3400);
    expect(scroller.scrollTop).toBe(3400);
    vi.unstubAllGlobals();
  });
});

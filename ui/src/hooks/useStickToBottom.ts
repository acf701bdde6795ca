// Keeps a scroll container pinned to its bottom while its content grows (streaming), unless the
// user scrolled up; scrolling back to the bottom pins it again.
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';

/** How close to the bottom (px) still counts as "at the bottom". */
const SLACK = 48;

export function useStickToBottom(
  scrollRef: RefObject<HTMLElement | null>,
  contentRef: RefObject<HTMLElement | null>,
): { pinned: boolean; onScroll: () => void; scrollToBottom: () => void } {
  const pinnedRef = useRef(true);
  const [pinned, setPinned] = useState(true);

  const scrollToBottom = useCallback(() => {
    const element = scrollRef.current;
    if (!element) return;
    element.scrollTop = element.scrollHeight;
    pinnedRef.current = true;
    setPinned(true);
  }, [scrollRef]);

  const onScroll = useCallback(() => {
    const element = scrollRef.current;
    if (!element) return;
    const atBottom = element.scrollHeight - element.scrollTop - element.clientHeight <= SLACK;
    if (atBottom !== pinnedRef.current) {
      pinnedRef.current = atBottom;
      setPinned(atBottom);
    }
  }, [scrollRef]);

  useEffect(() => {
    const scroller = scrollRef.current;
    const content = contentRef.current;
    if (!scroller || !content || typeof ResizeObserver === 'undefined') return;
    const follow = () => {
      if (pinnedRef.current) scroller.scrollTop = scroller.scrollHeight;
    };
    const observer = new ResizeObserver(follow);
    observer.observe(content);
    observer.observe(scroller);
    follow();
    return () => observer.disconnect();
  }, [scrollRef, contentRef]);

  return { pinned, onScroll, scrollToBottom };
}

// Keeps a scroll container pinned to its bottom while its content grows (streaming), unless the
// user scrolled up; scrolling back to the bottom pins it again. Only a move upwards unpins, so
// content that grows between two frames never counts as the user leaving the bottom.
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';

/** How close to the bottom (px) still counts as "at the bottom". */
const SLACK = 48;

export function useStickToBottom(
  scrollRef: RefObject<HTMLElement | null>,
  contentRef: RefObject<HTMLElement | null>,
): { pinned: boolean; onScroll: () => void; scrollToBottom: () => void; release: () => void } {
  const pinnedRef = useRef(true);
  const lastTop = useRef(0);
  const [pinned, setPinned] = useState(true);

  const scrollToBottom = useCallback(() => {
    const element = scrollRef.current;
    if (!element) return;
    element.scrollTop = element.scrollHeight;
    lastTop.current = element.scrollTop;
    pinnedRef.current = true;
    setPinned(true);
  }, [scrollRef]);

  /** Stops following the bottom (the view is about to show something above it). */
  const release = useCallback(() => {
    pinnedRef.current = false;
    setPinned(false);
  }, []);

  const onScroll = useCallback(() => {
    const element = scrollRef.current;
    if (!element) return;
    const top = element.scrollTop;
    const movedUp = top < lastTop.current - 1;
    lastTop.current = top;
    const atBottom = element.scrollHeight - top - element.clientHeight <= SLACK;
    const next = atBottom || (pinnedRef.current && !movedUp);
    if (next !== pinnedRef.current) {
      pinnedRef.current = next;
      setPinned(next);
    }
  }, [scrollRef]);

  useEffect(() => {
    const scroller = scrollRef.current;
    const content = contentRef.current;
    if (!scroller || !content || typeof ResizeObserver === 'undefined') return;
    const follow = () => {
      if (!pinnedRef.current) return;
      scroller.scrollTop = scroller.scrollHeight;
      lastTop.current = scroller.scrollTop;
    };
    const observer = new ResizeObserver(follow);
    observer.observe(content);
    observer.observe(scroller);
    follow();
    return () => observer.disconnect();
  }, [scrollRef, contentRef]);

  return { pinned, onScroll, scrollToBottom, release };
}

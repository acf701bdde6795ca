// Esc closes the dialog or panel that calls this: a window keydown listener, removed on unmount. With
// `capture`, it runs before the session's own Esc (stop the turn) and keeps that from firing.
import { useEffect } from 'react';

export function useEscape(onEscape: () => void, { enabled = true, capture = false }: { enabled?: boolean; capture?: boolean } = {}): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || !enabled) return;
      event.preventDefault();
      if (capture) event.stopPropagation();
      onEscape();
    };
    window.addEventListener('keydown', onKeyDown, capture);
    return () => window.removeEventListener('keydown', onKeyDown, capture);
  }, [onEscape, enabled, capture]);
}

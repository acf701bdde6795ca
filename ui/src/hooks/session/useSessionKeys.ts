// The session's own keys while a turn runs: Esc stops it, Ctrl+B moves its running shell commands to the background.
// A dialog's Esc comes first (it marks the event handled), so Esc in a dialog never stops the turn. Keys typed in the
// terminal panel are the shell's.
import { useEffect } from 'react';

export function useSessionKeys(running: boolean, interrupt: () => void, toBackground: () => void): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.target instanceof Element && event.target.closest('.terminal-panel')) return;
      if (event.key === 'Escape' && running && !event.defaultPrevented) {
        event.preventDefault();
        interrupt();
      }
      // By `code` too: some keyboards and webviews report another `key` for Ctrl+B.
      const ctrlB = event.ctrlKey && !event.altKey && !event.metaKey && (event.key.toLowerCase() === 'b' || event.code === 'KeyB');
      if (ctrlB && running && !event.defaultPrevented) {
        event.preventDefault();
        toBackground();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [running, interrupt, toBackground]);
}

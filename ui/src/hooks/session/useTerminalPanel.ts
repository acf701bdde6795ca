// Whether the shown session's terminal panel is shown: toggled by View > Terminal Panel and by Ctrl+` (taken before
// the panel's terminal sees it, so that it also hides the panel while the shell has the keys).
import { useCallback, useEffect, useState } from 'react';
import * as ipc from '../../ipc';

/** Whether `event` is Ctrl+` (by `code` too: keyboard layouts report other keys for the backquote). */
export function isToggleKey(event: KeyboardEvent): boolean {
  return event.ctrlKey && !event.altKey && !event.metaKey && (event.key === '`' || event.code === 'Backquote');
}

export function useTerminalPanel(shown: boolean): { open: boolean; toggle: () => void; hide: () => void } {
  const [open, setOpen] = useState(false);
  const toggle = useCallback(() => setOpen((o) => !o), []);
  const hide = useCallback(() => setOpen(false), []);
  useEffect(() => {
    if (!shown) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isToggleKey(event)) return;
      event.preventDefault();
      event.stopPropagation();
      toggle();
    };
    window.addEventListener('keydown', onKeyDown, true);
    let unlisten: (() => void) | null = null;
    let gone = false;
    ipc
      .onToggleTerminal(toggle)
      .then((off) => {
        if (gone) off();
        else unlisten = off;
      })
      .catch(() => undefined);
    return () => {
      gone = true;
      window.removeEventListener('keydown', onKeyDown, true);
      unlisten?.();
    };
  }, [shown, toggle]);
  return { open, toggle, hide };
}

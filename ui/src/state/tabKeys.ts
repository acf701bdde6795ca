// The window's keys for its tabs, as a pure decision over a key event.

/** What a key does to the tabs, if anything: Ctrl+Tab / Ctrl+PageDown next, with Shift or PageUp previous, Ctrl+W close. */
export function tabKey(event: Pick<KeyboardEvent, 'key' | 'code' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>): 'next' | 'previous' | 'close' | null {
  if (!event.ctrlKey || event.altKey || event.metaKey) return null;
  if (event.key === 'Tab' || event.code === 'Tab') return event.shiftKey ? 'previous' : 'next';
  if (event.key === 'PageDown' && !event.shiftKey) return 'next';
  if (event.key === 'PageUp' && !event.shiftKey) return 'previous';
  if (!event.shiftKey && (event.key.toLowerCase() === 'w' || event.code === 'KeyW')) return 'close';
  return null;
}

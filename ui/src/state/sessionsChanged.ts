// A window-wide signal that the stored sessions changed outside the open session (an import brought some in): the
// sidebar's list reloads on it.
const EVENT = 'tandem:sessions-changed';

/** Tells every listener that the stored sessions changed. */
export function announceSessionsChanged(): void {
  window.dispatchEvent(new Event(EVENT));
}

/** Calls `handler` each time the stored sessions change; returns the function that stops it. */
export function onSessionsChanged(handler: () => void): () => void {
  window.addEventListener(EVENT, handler);
  return () => window.removeEventListener(EVENT, handler);
}

// What survives a reload of the page (not a restart): the folder and session the window shows, kept in
// sessionStorage, so that a reloaded window opens the same session again instead of the command line's
// folder.

const KEY = 'tandem.open';

export type OpenSession = { cwd: string; sessionId: string };

/** Records the session the window shows. */
export function rememberOpen(open: OpenSession): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(open));
  } catch {
    // Storage unavailable: a reload then starts as a new window does.
  }
}

/** The session the window showed before it reloaded, if any. */
export function openBeforeReload(): OpenSession | null {
  try {
    const value: unknown = JSON.parse(sessionStorage.getItem(KEY) ?? 'null');
    if (typeof value !== 'object' || value === null) return null;
    const { cwd, sessionId } = value as Record<string, unknown>;
    return typeof cwd === 'string' && typeof sessionId === 'string' ? { cwd, sessionId } : null;
  } catch {
    return null;
  }
}

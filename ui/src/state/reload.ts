// What survives a reload of the page (not a restart): the sessions open in the window's tabs, in order, and the one
// shown, kept in sessionStorage, so that a reloaded window opens the same tabs again instead of the command line's
// folder.

const KEY = 'tandem.open';

export type OpenSession = { cwd: string; sessionId: string };

export type OpenTabs = { tabs: OpenSession[]; active: string | null };

/** Records the sessions of the window's tabs and the one shown (none: the welcome screen). */
export function rememberTabs(tabs: readonly OpenSession[], active: string | null): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ tabs, active }));
  } catch {
    // Storage unavailable: a reload then starts as a new window does.
  }
}

const isOpenSession = (value: unknown): value is OpenSession =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Record<string, unknown>).cwd === 'string' &&
  typeof (value as Record<string, unknown>).sessionId === 'string';

/** The tabs the window showed before it reloaded; null when it has not shown any yet. */
export function tabsBeforeReload(): OpenTabs | null {
  try {
    const value: unknown = JSON.parse(sessionStorage.getItem(KEY) ?? 'null');
    // A window of an earlier version kept one session.
    if (isOpenSession(value)) return { tabs: [value], active: value.sessionId };
    if (typeof value !== 'object' || value === null) return null;
    const { tabs, active } = value as Record<string, unknown>;
    if (!Array.isArray(tabs)) return null;
    return { tabs: tabs.filter(isOpenSession), active: typeof active === 'string' ? active : null };
  } catch {
    return null;
  }
}

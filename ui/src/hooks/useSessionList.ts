// The stored sessions of the open folder for the sidebar, newest first: loaded when a session
// opens, again whenever a turn ends (its title, time and message count change), counted by
// `turnsEnded` so a turn whose start and end arrived together still reloads it, and when the
// conversation's prompts change otherwise (a rewind removed some).
import { useCallback } from 'react';
import type { SessionSummary } from '../generated/protocol';
import * as ipc from '../ipc';
import { useLoad } from './useLoad';

export type SessionList = {
  sessions: readonly SessionSummary[];
  /** Why the last load failed, if it did. */
  error: string | null;
  refresh: () => void;
};

export function useSessionList(
  cwd: string,
  sessionId: string,
  running: boolean,
  turnsEnded: number,
  prompts: number,
): SessionList {
  // While a turn runs the list is unchanged until it ends; load on open and at each end.
  const listSorted = useCallback(
    () => ipc.listSessions(cwd).then((list) => [...list].sort((a, b) => b.updated_at_ms - a.updated_at_ms)),
    [cwd],
  );
  const listed = useLoad(running ? null : listSorted, `${sessionId}:${turnsEnded}:${prompts}`);
  return { sessions: listed.data ?? [], error: listed.error, refresh: listed.reload };
}

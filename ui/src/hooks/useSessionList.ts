// The stored sessions of the open folder for the sidebar, the pinned first and then newest first, with the folder's
// collections (the sidebar's folders): loaded when a session opens, again whenever a turn ends (its title, time and
// message count change), counted by `turnsEnded` so a turn whose start and end arrived together still reloads it,
// when the conversation's prompts change otherwise (a rewind removed some), when a turn of another tab's session of
// the same folder ends (`folderTurns`), and after each change the person makes (`refresh`; while a turn runs, at its
// end), and when sessions were imported.
import { useCallback, useEffect } from 'react';
import type { SessionCollection, SessionSummary } from '../generated/protocol';
import * as ipc from '../ipc';
import { onSessionsChanged } from '../state/sessionsChanged';
import { useLoad } from './useLoad';

export type SessionList = {
  sessions: readonly SessionSummary[];
  collections: readonly SessionCollection[];
  /** Why the last load failed, if it did. */
  error: string | null;
  refresh: () => void;
};

/** Pinned first, then the most recently updated first. */
export function sidebarOrder(a: SessionSummary, b: SessionSummary): number {
  return Number(b.pinned) - Number(a.pinned) || b.updated_at_ms - a.updated_at_ms;
}

/** A summary with the organising fields a backend left out (one that answers nothing for them) at their defaults. */
function unorganisedByDefault(summary: SessionSummary): SessionSummary {
  return { ...summary, pinned: summary.pinned ?? false, archived: summary.archived ?? false, tags: summary.tags ?? [], collection_id: summary.collection_id ?? null };
}

export function useSessionList(
  cwd: string,
  sessionId: string,
  running: boolean,
  turnsEnded: number,
  prompts: number,
  /** How many turns the folder's sessions open in other tabs have ended. */
  folderTurns = 0,
): SessionList {
  const load = useCallback(
    () =>
      Promise.all([ipc.listSessions(cwd), ipc.listCollections(cwd)]).then(([list, collections]) => ({
        sessions: (list ?? []).map(unorganisedByDefault).sort(sidebarOrder),
        collections: collections ?? [],
      })),
    [cwd],
  );
  const listed = useLoad(running ? null : load, `${sessionId}:${turnsEnded}:${prompts}:${folderTurns}`);
  const { reload } = listed;
  useEffect(() => onSessionsChanged(reload), [reload]);
  return {
    sessions: listed.data?.sessions ?? [],
    collections: listed.data?.collections ?? [],
    error: listed.error,
    refresh: listed.reload,
  };
}

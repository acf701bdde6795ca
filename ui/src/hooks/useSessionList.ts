// The stored sessions of the open folder for the sidebar, newest first: loaded when a session
// opens, again whenever a turn ends (its title, time and message count change), counted by
// `turnsEnded` so a turn whose start and end arrived together still reloads it, and when the
// conversation's prompts change otherwise (a rewind removed some).
import { useCallback, useEffect, useState } from 'react';
import type { SessionSummary } from '../generated/protocol';
import * as ipc from '../ipc';

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
  const [sessions, setSessions] = useState<readonly SessionSummary[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [generation, setGeneration] = useState(0);
  const refresh = useCallback(() => setGeneration((value) => value + 1), []);

  useEffect(() => {
    // While a turn runs the list is unchanged until it ends; load on open and at each end.
    if (running) return;
    let current = true;
    ipc
      .listSessions(cwd)
      .then((list) => {
        if (!current) return;
        setSessions([...list].sort((a, b) => b.updated_at_ms - a.updated_at_ms));
        setError(null);
      })
      .catch((cause: unknown) => {
        if (current) setError(ipc.errorMessage(cause));
      });
    return () => {
      current = false;
    };
  }, [cwd, sessionId, running, turnsEnded, prompts, generation]);

  return { sessions, error, refresh };
}

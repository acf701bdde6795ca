// The sessions open in the window's tabs: opens folders (or reopens stored sessions, or opens a session hosted by an
// external agent or a remote folder) through ipc, each with its own
// event channel feeding the tabs' reducer under its session's id — so a session whose tab is hidden keeps folding
// its events — and switches, cycles and closes tabs (closing ends the session in the backend). Opening a stored
// session that is open already shows its tab; one an external agent ran goes on with that agent, and when the agent
// cannot continue it, why is kept (`hostedFailure`) until the person goes on with Tandem's own model or leaves it.
// The tabs are remembered for a reload of the page.
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import type { EventBatch, EventEnvelope, SessionInfo } from '../generated/protocol';
import * as ipc from '../ipc';
import { noSessions, openSessionsReducer, type OpenSessions, type SessionOwnAction } from '../state/openSessions';
import { rememberTabs } from '../state/reload';

/** A stored hosted session whose agent could not continue it. */
export type HostedFailure = { path: string; resume: string; message: string };

export type OpenSessionsControls = {
  state: OpenSessions;
  /** True while an `open_session` is in flight. */
  opening: boolean;
  /** Why the last open failed. */
  error: string | null;
  clearError: () => void;
  /** The stored hosted session the last reopen could not continue with its agent, and why. */
  hostedFailure: HostedFailure | null;
  /** Reopens `hostedFailure`'s session with Tandem's own model (null: leaves it closed). */
  settleHostedFailure: (ownAgent: boolean) => Promise<void>;
  /**
   * Opens a new session on `path` in a new tab, or shows the stored session `resume` (in its tab when it is open,
   * else reopened in a new one); with `replaces`, the new session takes that session's tab and the old one ends.
   * Resolves to whether it opened, or the person is asked what to do instead (a stored session whose agent cannot
   * continue it: see `hostedFailure`).
   */
  open: (path: string, resume?: string | null, replaces?: string | null) => Promise<boolean>;
  /**
   * Opens a session whose turns an external agent runs (`door`: an agent of `agentServers` in the folder `path`, or
   * a remote folder stored under `path`) in a new tab. Resolves to null once it opened, else to why it could not
   * (not kept as `error`: the dialog that asked shows it).
   */
  openHosted: (path: string | null, door: ipc.HostedDoor) => Promise<string | null>;
  activate: (sessionId: string) => void;
  /** Shows the next (1) or previous (-1) tab. */
  cycle: (step: 1 | -1) => void;
  /** Closes the session's tab and ends the session (its running turn stops). */
  close: (sessionId: string) => Promise<void>;
  /** Folds something that happened to the open session `sessionId` into its state. */
  dispatchFor: (sessionId: string, action: SessionOwnAction) => void;
  /** When the last batch of the session's channel arrived (ms since the epoch; 0 when none did). */
  lastBatchAt: (sessionId: string) => number;
};

export function useOpenSessions(): OpenSessionsControls {
  const [state, dispatch] = useReducer(openSessionsReducer, noSessions);
  const [inFlight, setInFlight] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [hostedFailure, setHostedFailure] = useState<HostedFailure | null>(null);
  const lastBatch = useRef(new Map<string, number>());
  const latest = useRef(state);
  useEffect(() => {
    latest.current = state;
  });
  /** Reopens under way, by session id: a second click on the same stored session waits for the first. */
  const reopening = useRef(new Map<string, Promise<boolean>>());

  /** Opens a tab with what `call` opens (its events on the given handler), replacing `replaces`; resolves to the
   * error it failed with, or null. */
  const attempt = useCallback(
    async (call: (onBatch: (batch: EventBatch) => void) => Promise<SessionInfo>, replaces: string | null): Promise<unknown> => {
      let early: EventEnvelope[] | null = [];
      let sessionId: string | null = null;
      setInFlight((n) => n + 1);
      try {
        const info = await call((batch) => {
          const id = sessionId ?? batch.events[0]?.session_id;
          if (id) lastBatch.current.set(id, Date.now());
          if (early) early.push(...batch.events);
          else if (sessionId) dispatch({ type: 'session', sessionId, action: { type: 'events', events: batch.events } });
        });
        sessionId = info.session_id;
        dispatch({ type: 'opened', info, events: early, replaces });
        early = null;
        return null;
      } catch (cause) {
        return cause ?? 'Unknown error';
      } finally {
        setInFlight((n) => n - 1);
      }
    },
    [],
  );
  /** [`attempt`], resolving to why it could not, or null. */
  const openWith = useCallback(
    async (call: (onBatch: (batch: EventBatch) => void) => Promise<SessionInfo>, replaces: string | null): Promise<string | null> => {
      const cause = await attempt(call, replaces);
      return cause === null ? null : ipc.errorMessage(cause);
    },
    [attempt],
  );

  const openNow = useCallback(
    async (path: string, resume: string | null, replaces: string | null) => {
      setError(null);
      const cause = await attempt((onBatch) => ipc.openSession(path, onBatch, resume, replaces), replaces);
      if (cause === null) return true;
      if (resume && ipc.isIpcError(cause) && cause.code === 'hosted_session') {
        // Run by an external agent: it goes on with that agent.
        const failed = await openWith((onBatch) => ipc.openHostedSession(path, onBatch, { resume }), null);
        // When it cannot, the person decides in the dialog (Tandem's own model, or leave it closed): that answers
        // the open too, so that nobody opens something else in its place meanwhile.
        if (failed !== null) setHostedFailure({ path, resume, message: failed });
        return true;
      }
      setError(ipc.errorMessage(cause));
      return false;
    },
    [attempt, openWith],
  );

  const settleHostedFailure = useCallback(
    async (ownAgent: boolean) => {
      const failure = hostedFailure;
      if (!failure) return;
      if (ownAgent) {
        const failed = await openWith((onBatch) => ipc.openSession(failure.path, onBatch, failure.resume, null, true), null);
        if (failed !== null) setError(failed);
      }
      setHostedFailure(null);
    },
    [hostedFailure, openWith],
  );

  const openHosted = useCallback(
    (path: string | null, door: ipc.HostedDoor) => openWith((onBatch) => ipc.openHostedSession(path, onBatch, door), null),
    [openWith],
  );

  const open = useCallback(
    (path: string, resume: string | null = null, replaces: string | null = null): Promise<boolean> => {
      if (resume && !replaces) {
        if (latest.current.tabs.some((tab) => tab.info.session_id === resume)) {
          dispatch({ type: 'activate', sessionId: resume });
          return Promise.resolve(true);
        }
        const under = reopening.current.get(resume);
        if (under) return under;
        const opened = openNow(path, resume, null).finally(() => reopening.current.delete(resume));
        reopening.current.set(resume, opened);
        return opened;
      }
      return openNow(path, resume, replaces);
    },
    [openNow],
  );

  const activate = useCallback((sessionId: string) => dispatch({ type: 'activate', sessionId }), []);
  const cycle = useCallback((step: 1 | -1) => dispatch({ type: 'cycle', step }), []);
  const close = useCallback(async (sessionId: string) => {
    dispatch({ type: 'closed', sessionId });
    lastBatch.current.delete(sessionId);
    try {
      await ipc.closeSession(sessionId);
    } catch (cause) {
      setError(ipc.errorMessage(cause));
    }
  }, []);
  const dispatchFor = useCallback(
    (sessionId: string, action: SessionOwnAction) => dispatch({ type: 'session', sessionId, action }),
    [],
  );
  const lastBatchAt = useCallback((sessionId: string) => lastBatch.current.get(sessionId) ?? 0, []);
  const clearError = useCallback(() => setError(null), []);

  // A reload of the page reopens the same tabs.
  const remembered = useMemo(
    () => state.tabs.map((tab) => ({ cwd: tab.info.cwd, sessionId: tab.info.session_id })),
    [state.tabs],
  );
  const rememberedKey = JSON.stringify(remembered);
  /** Whether a tab has opened yet (until then, what a reload left is still to be read). */
  const shown = useRef(false);
  useEffect(() => {
    shown.current ||= remembered.length > 0;
    if (shown.current) rememberTabs(remembered, state.active);
    // Only when the tabs or the shown one change, not at every event.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [rememberedKey, state.active]);

  return useMemo(
    () => ({
      state,
      opening: inFlight > 0,
      error,
      clearError,
      hostedFailure,
      settleHostedFailure,
      open,
      openHosted,
      activate,
      cycle,
      close,
      dispatchFor,
      lastBatchAt,
    }),
    [state, inFlight, error, clearError, hostedFailure, settleHostedFailure, open, openHosted, activate, cycle, close, dispatchFor, lastBatchAt],
  );
}

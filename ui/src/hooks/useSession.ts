// One open session's controls (a tab of the window): the commands that act on it (prompt, approval, interrupt,
// mode, rewind, trust), its own last error, and its catching up: events the channel did not bring are fetched when
// the session holds events after a gap, and when a turn runs but nothing has arrived for a while (a batch that never
// crossed would otherwise leave the window waiting for good). Runs for every tab, shown or hidden.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type {
  ApprovalAnswer,
  ChangedFile,
  PermissionMode,
  PromptImage,
  RewindOutcome,
  RewindPoint,
  RewindScope,
  SessionInfo,
} from '../generated/protocol';
import * as ipc from '../ipc';
import type { Session } from '../state/session';
import type { OpenSessionsControls } from './useOpenSessions';

/** What a tab's controls use of the window's open sessions. */
export type TabsHub = Pick<OpenSessionsControls, 'dispatchFor' | 'lastBatchAt' | 'open' | 'error' | 'clearError'>;

export type SessionControls = {
  session: Session;
  /** Why the last command of this session failed (or, in the tab shown, why the last open failed). */
  error: string | null;
  clearError: () => void;
  /**
   * Opens a new session on `path` in a new tab, or shows the stored session `resume` (its tab, or a new one);
   * resolves to whether it opened.
   */
  open: (path: string, resume?: string | null) => Promise<boolean>;
  /** Starts a new session in this session's folder in this tab (`/clear`); this one ends. */
  clear: () => Promise<boolean>;
  /** Sends a prompt with the images attached to it (none by default). */
  sendPrompt: (prompt: string, images?: readonly PromptImage[]) => Promise<boolean>;
  answer: (answer: ApprovalAnswer) => Promise<boolean>;
  interrupt: () => Promise<void>;
  setMode: (mode: PermissionMode) => Promise<void>;
  /** The prompts the open session can be rewound to (rejects with the backend's error). */
  rewindPoints: () => Promise<RewindPoint[]>;
  /**
   * Rewinds to before the prompt `promptId`, shown as the `ordinal`-th prompt row (0-based); when the
   * conversation was rewound, that row and all after it leave the transcript. Rejects with the backend's error.
   */
  rewind: (promptId: string, ordinal: number, scope: RewindScope, force: boolean) => Promise<RewindOutcome>;
  /** Trusts the folder or withdraws trust (rejects with the backend's error). */
  setTrust: (trusted: boolean) => Promise<void>;
  /** Every file the session changed (rejects with the backend's error). */
  changes: () => Promise<ChangedFile[]>;
  /** Takes an open session's new info (after the person saved settings). */
  updateInfo: (info: SessionInfo) => void;
};

/** How long a running turn's channel may stay quiet before the window asks for events it may have missed. */
const QUIET_MS = 2000;

/** Whether a rewind's outcome means the conversation was cut (a file conflict stops everything). */
export function conversationRewound(scope: RewindScope, outcome: RewindOutcome): boolean {
  return scope !== 'files' && (scope === 'conversation' || outcome.files_rewound);
}

export function useSessionControls(session: Session, tabs: TabsHub, shown: boolean): SessionControls {
  const { dispatchFor, lastBatchAt, open } = tabs;
  const sessionId = session.info.session_id;
  const [ownError, setError] = useState<string | null>(null);
  const error = ownError ?? (shown ? tabs.error : null);
  const clearTabsError = tabs.clearError;
  const clearError = useCallback(() => {
    setError(null);
    clearTabsError();
  }, [clearTabsError]);
  const dispatch = useCallback((action: Parameters<typeof dispatchFor>[1]) => dispatchFor(sessionId, action), [dispatchFor, sessionId]);
  const latest = useRef(session);
  useEffect(() => {
    latest.current = session;
  });

  /** Asks the backend for the events after the last one folded in, and folds them. */
  const fetching = useRef(false);
  const catchUp = useCallback(() => {
    if (fetching.current) return;
    fetching.current = true;
    const { lastSeq } = latest.current.transcript;
    ipc
      .sessionEvents(sessionId, lastSeq >= 0 ? lastSeq : null)
      .then(
        (events) => {
          if (events.length > 0) dispatch({ type: 'events', events });
        },
        (cause: unknown) => {
          if (ipc.isIpcError(cause) && cause.code === 'events_missed') dispatch({ type: 'skip_gap' });
          setError(ipc.errorMessage(cause));
        },
      )
      .finally(() => {
        fetching.current = false;
      });
  }, [sessionId, dispatch]);
  const gap = session.transcript.pending.length > 0;
  const running = session.transcript.running;
  useEffect(() => {
    if (gap) catchUp();
  }, [gap, catchUp]);
  useEffect(() => {
    if (!running) return;
    // While a turn runs, a quiet channel is checked: it may have lost the batch that ends the turn.
    const timer = setInterval(() => {
      if (Date.now() - lastBatchAt(sessionId) >= QUIET_MS) catchUp();
    }, QUIET_MS);
    return () => clearInterval(timer);
  }, [running, catchUp, lastBatchAt, sessionId]);

  /** Runs a command of the session, reporting a failure; resolves to whether it worked. */
  const run = useCallback(
    async (command: (id: string) => Promise<void>): Promise<boolean> => {
      try {
        await command(sessionId);
        return true;
      } catch (cause) {
        setError(ipc.errorMessage(cause));
        return false;
      }
    },
    [sessionId],
  );

  const sendPrompt = useCallback(
    (prompt: string, images: readonly PromptImage[] = []) => run((id) => ipc.sendPrompt(id, prompt, images)),
    [run],
  );
  const answer = useCallback((value: ApprovalAnswer) => run(() => ipc.answerApproval(value)), [run]);
  const interrupt = useCallback(async () => {
    await run((id) => ipc.interrupt(id));
  }, [run]);
  const setMode = useCallback(
    async (mode: PermissionMode) => {
      if (await run((id) => ipc.setMode(id, mode))) dispatch({ type: 'mode', mode });
    },
    [run, dispatch],
  );
  const cwd = session.info.cwd;
  const clear = useCallback(() => open(cwd, null, sessionId), [open, cwd, sessionId]);

  const rewindPoints = useCallback(() => ipc.rewindPoints(sessionId), [sessionId]);
  const rewind = useCallback(
    async (promptId: string, ordinal: number, scope: RewindScope, force: boolean) => {
      const outcome = await ipc.rewind(sessionId, promptId, scope, force);
      if (conversationRewound(scope, outcome)) dispatch({ type: 'rewound', ordinal });
      return outcome;
    },
    [sessionId, dispatch],
  );

  const setTrust = useCallback(
    async (trusted: boolean) => {
      const trust = trusted ? await ipc.trustFolder(sessionId) : await ipc.revokeTrust(sessionId);
      dispatch({ type: 'trust', trust });
    },
    [sessionId, dispatch],
  );

  const changes = useCallback(() => ipc.sessionChanges(sessionId), [sessionId]);
  const updateInfo = useCallback((info: SessionInfo) => dispatchFor(info.session_id, { type: 'info', info }), [dispatchFor]);
  const openSession = useCallback((path: string, resume: string | null = null) => open(path, resume), [open]);

  return useMemo(
    () => ({
      changes,
      session,
      error,
      clearError,
      open: openSession,
      clear,
      sendPrompt,
      answer,
      interrupt,
      setMode,
      rewindPoints,
      rewind,
      setTrust,
      updateInfo,
    }),
    [session, error, clearError, openSession, clear, sendPrompt, answer, interrupt, setMode, rewindPoints, rewind, setTrust, changes, updateInfo],
  );
}

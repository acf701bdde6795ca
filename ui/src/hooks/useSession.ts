// The open session: opens folders (or reopens stored sessions) through ipc, feeds the session's
// event channel into the reducer, and exposes the commands that act on the session (prompt,
// approval, interrupt, mode). Events the channel did not bring are fetched: when the reducer holds
// events after a gap, and when a turn runs but nothing has arrived for a while (a batch that never
// crossed would otherwise leave the window waiting for good).
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import type {
  ApprovalAnswer,
  ChangedFile,
  EventEnvelope,
  PermissionMode,
  PromptImage,
  RewindOutcome,
  RewindPoint,
  RewindScope,
  SessionInfo,
} from '../generated/protocol';
import * as ipc from '../ipc';
import { rememberOpen } from '../state/reload';
import { sessionReducer, type Session } from '../state/session';

export type SessionControls = {
  session: Session | null;
  /** True while `open_session` is in flight. */
  opening: boolean;
  /** Why the last open failed, or why the last command failed. */
  error: string | null;
  clearError: () => void;
  /** Opens a new session on `path`, or reopens the stored session `resume`; resolves to whether it opened. */
  open: (path: string, resume?: string | null) => Promise<boolean>;
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
  /** Takes the session's new info (after the person saved settings); another session's info is ignored. */
  updateInfo: (info: SessionInfo) => void;
};

/** How long a running turn's channel may stay quiet before the window asks for events it may have missed. */
const QUIET_MS = 2000;

/** Whether a rewind's outcome means the conversation was cut (a file conflict stops everything). */
export function conversationRewound(scope: RewindScope, outcome: RewindOutcome): boolean {
  return scope !== 'files' && (scope === 'conversation' || outcome.files_rewound);
}

export function useSession(): SessionControls {
  const [session, dispatch] = useReducer(sessionReducer, null);
  const [opening, setOpening] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Each open bumps the generation; batches and answers of an older open are dropped.
  const generation = useRef(0);
  const sessionId = session?.info.session_id ?? null;
  /** When the last batch of the open session arrived (ms), and the latest state, for catching up. */
  const lastBatchAt = useRef(0);
  const latest = useRef(session);
  useEffect(() => {
    latest.current = session;
  });

  const open = useCallback(async (path: string, resume: string | null = null) => {
    const current = ++generation.current;
    let early: EventEnvelope[] | null = [];
    setOpening(true);
    setError(null);
    try {
      const info = await ipc.openSession(path, (batch) => {
        if (current !== generation.current) return;
        lastBatchAt.current = Date.now();
        if (early) early.push(...batch.events);
        else dispatch({ type: 'events', events: batch.events });
      }, resume);
      if (current !== generation.current) return false;
      dispatch({ type: 'opened', info, events: early });
      early = null;
      rememberOpen({ cwd: info.cwd, sessionId: info.session_id });
      return true;
    } catch (cause) {
      if (current === generation.current) setError(ipc.errorMessage(cause));
      return false;
    } finally {
      if (current === generation.current) setOpening(false);
    }
  }, []);

  /** Asks the backend for the events after the last one folded in, and folds them. */
  const fetching = useRef(false);
  const catchUp = useCallback(async () => {
    const open = latest.current;
    if (!open || fetching.current) return;
    fetching.current = true;
    const current = generation.current;
    const { lastSeq } = open.transcript;
    try {
      const events = await ipc.sessionEvents(open.info.session_id, lastSeq >= 0 ? lastSeq : null);
      if (current === generation.current && events.length > 0) dispatch({ type: 'events', events });
    } catch (cause) {
      if (current !== generation.current) return;
      if (ipc.isIpcError(cause) && cause.code === 'events_missed') dispatch({ type: 'skip_gap' });
      setError(ipc.errorMessage(cause));
    } finally {
      fetching.current = false;
    }
  }, []);
  const gap = (session?.transcript.pending.length ?? 0) > 0;
  const running = session?.transcript.running ?? false;
  useEffect(() => {
    if (gap) void catchUp();
  }, [gap, catchUp]);
  useEffect(() => {
    if (!running) return;
    // While a turn runs, a quiet channel is checked: it may have lost the batch that ends the turn.
    const timer = setInterval(() => {
      if (Date.now() - lastBatchAt.current >= QUIET_MS) void catchUp();
    }, QUIET_MS);
    return () => clearInterval(timer);
  }, [running, catchUp]);

  /** Runs a command of the open session, reporting a failure; resolves to whether it worked. */
  const run = useCallback(
    async (command: (id: string) => Promise<void>): Promise<boolean> => {
      if (!sessionId) return false;
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
  const answer = useCallback(
    (value: ApprovalAnswer) => run(() => ipc.answerApproval(value)),
    [run],
  );
  const interrupt = useCallback(async () => {
    await run((id) => ipc.interrupt(id));
  }, [run]);
  const setMode = useCallback(
    async (mode: PermissionMode) => {
      if (await run((id) => ipc.setMode(id, mode))) dispatch({ type: 'mode', mode });
    },
    [run],
  );
  const clearError = useCallback(() => setError(null), []);

  const rewindPoints = useCallback(async () => {
    if (!sessionId) return [];
    return ipc.rewindPoints(sessionId);
  }, [sessionId]);
  const rewind = useCallback(
    async (promptId: string, ordinal: number, scope: RewindScope, force: boolean) => {
      if (!sessionId) throw new Error('No session is open');
      const current = generation.current;
      const outcome = await ipc.rewind(sessionId, promptId, scope, force);
      if (current === generation.current && conversationRewound(scope, outcome)) dispatch({ type: 'rewound', ordinal });
      return outcome;
    },
    [sessionId],
  );

  const setTrust = useCallback(
    async (trusted: boolean) => {
      if (!sessionId) throw new Error('No session is open');
      const trust = trusted ? await ipc.trustFolder(sessionId) : await ipc.revokeTrust(sessionId);
      dispatch({ type: 'trust', trust });
    },
    [sessionId],
  );

  const changes = useCallback(async () => {
    if (!sessionId) return [];
    return ipc.sessionChanges(sessionId);
  }, [sessionId]);

  const updateInfo = useCallback((info: SessionInfo) => dispatch({ type: 'info', info }), []);

  return useMemo(
    () => ({
      changes,
      session,
      opening,
      error,
      clearError,
      open,
      sendPrompt,
      answer,
      interrupt,
      setMode,
      rewindPoints,
      rewind,
      setTrust,
      updateInfo,
    }),
    [session, opening, error, clearError, open, sendPrompt, answer, interrupt, setMode, rewindPoints, rewind, setTrust, changes, updateInfo],
  );
}

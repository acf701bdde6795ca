// The sessions open in the window's tabs: each session's own state (folded by `sessionReducer`), their order and the
// one shown. A pure reducer: every action names the session it is for, so events of several sessions can arrive
// interleaved and batched any way while each session's state is folded from its own events only, whether its tab
// is shown or not. Events for a session that is not open (its tab closed) are dropped.
import type { EventEnvelope, SessionInfo } from '../generated/protocol';
import { sessionReducer, type Session, type SessionAction } from './session';

export type OpenSessions = {
  /** The open sessions in the order of their tabs. */
  tabs: readonly Session[];
  /** The id of the session shown, null when none is open. */
  active: string | null;
};

export const noSessions: OpenSessions = { tabs: [], active: null };

/** What happens to one session, as `sessionReducer` folds it (`opened` is the tabs' own action). */
export type SessionOwnAction = Exclude<SessionAction, { type: 'opened' }>;

export type OpenSessionsAction =
  /**
   * A session was opened with the events that arrived before `open_session` resolved. It takes the tab of
   * `replaces` (the window's `/clear`), or its own tab when it is open already (reopened after a reload), or a new
   * tab after the one shown; it is shown.
   */
  | { type: 'opened'; info: SessionInfo; events: readonly EventEnvelope[]; replaces?: string | null }
  /** Something happened to the open session `sessionId`. */
  | { type: 'session'; sessionId: string; action: SessionOwnAction }
  /** Shows the session `sessionId`. */
  | { type: 'activate'; sessionId: string }
  /** Shows the next tab (`step` 1) or the previous one (`step` -1), wrapping around. */
  | { type: 'cycle'; step: 1 | -1 }
  /** Closes the session's tab; the tab after it is shown (the one before when it was the last). */
  | { type: 'closed'; sessionId: string };

const idOf = (session: Session) => session.info.session_id;

export function openSessionsReducer(state: OpenSessions, action: OpenSessionsAction): OpenSessions {
  switch (action.type) {
    case 'opened': {
      const opened = sessionReducer(null, { type: 'opened', info: action.info, events: action.events });
      if (!opened) return state;
      const id = action.info.session_id;
      const at = state.tabs.findIndex((each) => idOf(each) === id);
      const replacing = action.replaces ? state.tabs.findIndex((each) => idOf(each) === action.replaces) : -1;
      const tabs = [...state.tabs];
      if (at >= 0) tabs[at] = opened;
      else if (replacing >= 0) tabs[replacing] = opened;
      else {
        const shown = state.tabs.findIndex((each) => idOf(each) === state.active);
        tabs.splice(shown >= 0 ? shown + 1 : tabs.length, 0, opened);
      }
      // A replaced tab that was also open elsewhere (reopened after a reload) is not kept twice.
      const unique = tabs.filter((each, index) => tabs.findIndex((other) => idOf(other) === idOf(each)) === index);
      return { tabs: unique, active: id };
    }
    case 'session': {
      const at = state.tabs.findIndex((each) => idOf(each) === action.sessionId);
      const before = state.tabs[at];
      if (!before) return state;
      const after = sessionReducer(before, action.action);
      if (!after || after === before) return state;
      const tabs = [...state.tabs];
      tabs[at] = after;
      return { ...state, tabs };
    }
    case 'activate':
      return state.active !== action.sessionId && state.tabs.some((each) => idOf(each) === action.sessionId)
        ? { ...state, active: action.sessionId }
        : state;
    case 'cycle': {
      if (state.tabs.length < 2) return state;
      const at = state.tabs.findIndex((each) => idOf(each) === state.active);
      const next = state.tabs[(at + action.step + state.tabs.length) % state.tabs.length];
      return next ? { ...state, active: idOf(next) } : state;
    }
    case 'closed': {
      const at = state.tabs.findIndex((each) => idOf(each) === action.sessionId);
      if (at < 0) return state;
      const tabs = state.tabs.filter((_, index) => index !== at);
      if (state.active !== action.sessionId) return { ...state, tabs };
      const next = tabs[Math.min(at, tabs.length - 1)];
      return { tabs, active: next ? idOf(next) : null };
    }
  }
}

/** The session shown, if any. */
export function activeSession(state: OpenSessions): Session | null {
  return state.tabs.find((each) => idOf(each) === state.active) ?? null;
}

/** Whether a session waits for the person: a request (permission, plan, questions, form) not yet resolved. */
export function waitsForPerson(session: Session): boolean {
  const { approvals, planReviews, questions, forms } = session.transcript;
  return approvals.length + planReviews.length + questions.length + forms.length > 0;
}

/** What a tab or a sidebar row marks about a session: waiting for the person comes before running. */
export type SessionMark = 'waiting' | 'running' | null;

export function markOf(session: Session): SessionMark {
  if (waitsForPerson(session)) return 'waiting';
  return session.transcript.running ? 'running' : null;
}

/** How a mark is named (tooltips, screen readers). */
export const MARK_LABELS: Record<Exclude<SessionMark, null>, string> = {
  running: 'Running',
  waiting: 'Waiting for you',
};

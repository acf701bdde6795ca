// The state of the open session as the window sees it: its info, its current permission mode and
// its transcript. A pure reducer over the actions the session hook dispatches.
import type { EventEnvelope, PermissionMode, SessionInfo } from '../generated/protocol';
import { applyEvents } from './reduce';
import { emptyTranscript, type Transcript } from './transcript';

export type Session = {
  info: SessionInfo;
  mode: PermissionMode;
  transcript: Transcript;
};

export type SessionAction =
  /** A session was opened; `events` are those that arrived before `open_session` resolved. */
  | { type: 'opened'; info: SessionInfo; events: readonly EventEnvelope[] }
  | { type: 'events'; events: readonly EventEnvelope[] }
  | { type: 'mode'; mode: PermissionMode };

export function sessionReducer(state: Session | null, action: SessionAction): Session | null {
  switch (action.type) {
    case 'opened':
      return {
        info: action.info,
        mode: action.info.mode,
        transcript: applyEvents(emptyTranscript(action.info.session_id), action.events),
      };
    case 'events': {
      if (!state) return state;
      const transcript = applyEvents(state.transcript, action.events);
      return transcript === state.transcript ? state : { ...state, transcript };
    }
    case 'mode':
      return state && state.mode !== action.mode ? { ...state, mode: action.mode } : state;
  }
}

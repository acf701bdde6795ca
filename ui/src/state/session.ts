// The state of the open session as the window sees it: its info, its current permission mode and
// its transcript. A pure reducer over the actions the session hook dispatches. The mode follows the
// user's switcher and also the engine's `mode_changed` events (e.g. a tool entering plan mode); the model
// follows `model_changed` (the person typed `/model name`).
import type { EventEnvelope, FolderTrust, PermissionMode, SessionInfo } from '../generated/protocol';
import { applyEvents, skipGap } from './reduce';
import { truncateBeforePrompt } from './rewind';
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
  /** The events missing before the held ones can no longer be had: fold the held ones as they are. */
  | { type: 'skip_gap' }
  | { type: 'mode'; mode: PermissionMode }
  /** The conversation was rewound to before the `ordinal`-th prompt row (0-based): it and every row after it go. */
  | { type: 'rewound'; ordinal: number }
  /** The folder's trust changed (trusted or revoked from the window). */
  | { type: 'trust'; trust: FolderTrust }
  /** The session's info changed (the person saved other settings: model, key). Ignored for another session. */
  | { type: 'info'; info: SessionInfo };

export function sessionReducer(state: Session | null, action: SessionAction): Session | null {
  switch (action.type) {
    case 'opened': {
      const transcript = applyEvents(emptyTranscript(action.info.session_id), action.events);
      // A reopened session's model is the one its info names (a `/model` switch lasts for the session it was made in).
      return { info: action.info, mode: transcript.mode ?? action.info.mode, transcript };
    }
    case 'events':
    case 'skip_gap': {
      if (!state) return state;
      const transcript =
        action.type === 'events' ? applyEvents(state.transcript, action.events) : skipGap(state.transcript);
      if (transcript === state.transcript) return state;
      const engineMode = transcript.mode !== state.transcript.mode ? transcript.mode : null;
      const model = transcript.model !== state.transcript.model ? transcript.model : null;
      const info = model ? { ...state.info, model } : state.info;
      return { ...state, info, transcript, mode: engineMode ?? state.mode };
    }
    case 'mode':
      return state && state.mode !== action.mode ? { ...state, mode: action.mode } : state;
    case 'rewound': {
      if (!state) return state;
      const transcript = truncateBeforePrompt(state.transcript, action.ordinal);
      return transcript === state.transcript ? state : { ...state, transcript };
    }
    case 'trust':
      return state && { ...state, info: { ...state.info, trust: action.trust } };
    case 'info':
      return state && state.info.session_id === action.info.session_id ? { ...state, info: action.info } : state;
  }
}

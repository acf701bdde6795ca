// Tests of the session reducer: the mode follows the switcher and the engine's mode_changed events,
// including those replayed when a stored session reopens; the model follows model_changed.
import { describe, expect, it } from 'vitest';
import type { SessionEvent, SessionInfo } from '../generated/protocol';
import { envelopes, SESSION } from '../test/events';
import { sessionReducer, type Session } from './session';

const info: SessionInfo = {
  session_id: SESSION,
  cwd: '/p',
  folder_name: 'p',
  model: 'm',
  mode: 'default',
  setup_hint: null,
  trust: { trusted: true, allow_rules: [], directories: [], hooks: [], mcp_servers: [] },
  context_window: 200000, compact_at_percent: 80,
  auto_mode_available: false,
  terminal_panel: false,
};

function opened(events: SessionEvent[] = []): Session {
  const state = sessionReducer(null, { type: 'opened', info, events: envelopes(events) });
  if (!state) throw new Error('no session');
  return state;
}

describe('sessionReducer modes', () => {
  it('starts in the mode of the session info', () => {
    expect(opened().mode).toBe('default');
  });

  it('takes the last mode of replayed events on open', () => {
    expect(opened([{ type: 'mode_changed', mode: 'acceptEdits' }]).mode).toBe('acceptEdits');
  });

  it('follows mode_changed from the engine', () => {
    const state = sessionReducer(opened(), {
      type: 'events',
      events: envelopes([{ type: 'mode_changed', mode: 'plan' }]),
    });
    expect(state?.mode).toBe('plan');
    expect(state?.transcript.mode).toBe('plan');
  });

  it('keeps the user’s later choice when other events arrive', () => {
    let state = sessionReducer(opened(), { type: 'events', events: envelopes([{ type: 'mode_changed', mode: 'plan' }]) });
    state = sessionReducer(state, { type: 'mode', mode: 'default' });
    state = sessionReducer(state, { type: 'events', events: envelopes([{ type: 'text_delta', text: 'x' }], 1) });
    expect(state?.mode).toBe('default');
  });
});

describe('sessionReducer model', () => {
  it('shows the model /model switched to, but a reopened session keeps its info’s model', () => {
    const state = sessionReducer(opened(), {
      type: 'events',
      events: envelopes([{ type: 'model_changed', model: 'claude-haiku-4-5' }]),
    });
    expect(state?.info.model).toBe('claude-haiku-4-5');
    expect(opened([{ type: 'model_changed', model: 'old' }]).info.model).toBe('m');
  });
});

// A mocked Tauri backend for component tests: records every command, answers with defaults or
// per-test handlers, and pushes session events into the channel that open_session received.
import { act, within } from '@testing-library/react';
import { mockIPC } from '@tauri-apps/api/mocks';
import type { AppSettings, EventEnvelope, SessionEvent, SessionInfo } from '../generated/protocol';
import type { AppStateView } from '../generated/app';
import { ChannelSender, isChannelArg } from '../mock/channel';

export type Call = { cmd: string; args: Record<string, unknown> };
type Handler = (args: Record<string, unknown>) => unknown;

export const FOLDER = '/home/me/projects/demo';

export function sessionInfo(overrides: Partial<SessionInfo> = {}): SessionInfo {
  return {
    session_id: 'session-1',
    cwd: FOLDER,
    folder_name: 'demo',
    model: 'claude-test-1',
    mode: 'default',
    setup_hint: null,
    trust: { trusted: true, allow_rules: [], directories: [], hooks: [], mcp_servers: [] },
    context_window: 200000, compact_at_percent: 80,
    auto_mode_available: false,
    terminal_panel: false,
    ...overrides,
  };
}

export function appSettings(overrides: Partial<AppSettings> = {}): AppSettings {
  return {
    provider: 'anthropic',
    base_url: '',
    model: '',
    key_source: 'none',
    theme: 'dark',
    font_size: 14,
    overridden_by_env: [],
    notifications: true,
    file: '/home/me/.config/tandem/settings.json',
    base_url_in_use: 'https://api.anthropic.com',
    model_in_use: 'claude-sonnet-4-5',
    key_saved: false,
    budget: { daily_usd: null, monthly_usd: null, warn_percent: 80, on_limit: 'warn' },
    ...overrides,
  };
}

export type FakeIpc = {
  calls: Call[];
  /** The arguments of every call of `cmd`, in order. */
  argsOf: (cmd: string) => Record<string, unknown>[];
  /** Sends events (numbered on) to the latest session channel, inside act(). */
  push: (...events: SessionEvent[]) => void;
  /** Sends events to the channel of the `index`th open_session call. */
  pushOn: (index: number, ...events: SessionEvent[]) => void;
  /** Numbers events on the latest session channel without sending them (a batch that never crossed); the
   * backend's `session_events` still has them. */
  lose: (...events: SessionEvent[]) => void;
};

export function installFakeIpc(handlers: Record<string, Handler> = {}, app: Partial<AppStateView> = {}): FakeIpc {
  const calls: Call[] = [];
  let opened = 0;
  const channels: { sender: ChannelSender; sessionId: string; seq: number; log: EventEnvelope[] }[] = [];
  const defaults: Record<string, Handler> = {
    app_state: () => ({ folder: null, recent: [], version: '0.0.0-test', ...app }),
    pick_folder: () => FOLDER,
    slash_commands: () => [],
    complete_mention: () => [],
    kept_worktrees: () => [],
    app_settings: () => appSettings(),
    budget_status: () => [],
    // Each new session its own id (session-1, session-2, …), a reopened one its own.
    open_session: (args) =>
      sessionInfo({
        session_id: typeof args.resume === 'string' ? args.resume : `session-${++opened}`,
        cwd: String(args.path),
        folder_name: String(args.path).split('/').pop() ?? '',
      }),
    // The backend keeps every event it numbered: those after `afterSeq` of the session's latest channel.
    session_events: (args) => {
      const channel = channels.findLast((each) => each.sessionId === args.sessionId);
      const after = typeof args.afterSeq === 'number' ? args.afterSeq : -1;
      return channel ? channel.log.filter((envelope) => envelope.seq > after) : [];
    },
  };
  mockIPC(
    (cmd, payload) => {
      const args = (payload ?? {}) as Record<string, unknown>;
      calls.push({ cmd, args });
      const handler = handlers[cmd] ?? defaults[cmd];
      const result = handler ? handler(args) : null;
      if (cmd === 'open_session' && isChannelArg(args.onEvent)) {
        const sessionId = (result as SessionInfo | null)?.session_id ?? 'session-1';
        channels.push({ sender: new ChannelSender(args.onEvent), sessionId, seq: 0, log: [] });
      }
      return result;
    },
    { shouldMockEvents: true },
  );
  return {
    calls,
    argsOf: (cmd) => calls.filter((call) => call.cmd === cmd).map((call) => call.args),
    push: (...events) => pushOn(channels.length - 1, events),
    pushOn: (index, ...events) => pushOn(index, events),
    lose: (...events) => void number(channels.length - 1, events),
  };

  function number(index: number, events: SessionEvent[]) {
    const channel = channels[index];
    if (!channel) throw new Error(`no session channel ${index}`);
    const envelopes = events.map((event) => ({ session_id: channel.sessionId, seq: channel.seq++, event }));
    channel.log.push(...envelopes);
    return { channel, envelopes };
  }

  function pushOn(index: number, events: SessionEvent[]): void {
    const { channel, envelopes } = number(index, events);
    act(() => channel.sender.send({ events: envelopes }));
  }
}

/** Queries within the session of the tab shown (the hidden tabs' sessions stay in the document). */
export function shownSession() {
  const pane = document.querySelector<HTMLElement>('[data-testid="session"][data-shown="true"]');
  if (!pane) throw new Error('no session is shown');
  return within(pane);
}

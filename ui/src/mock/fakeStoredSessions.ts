// Sessions the e2e fake backend has "stored" for the fake project before the test starts: a
// summary for the sidebar and the events that reopening replays.
import type { SessionEvent, SessionSummary } from '../generated/protocol';

/**
 * `folder`: the project folder it belongs to, the fake project's when absent; `model`: what ran it, Tandem's own
 * model when absent (`acp:NAME` for an external agent).
 */
export type StoredSession = { summary: SessionSummary; events: SessionEvent[]; folder?: string; model?: string };

/** The folder of the stored session of another project (for searching every folder). */
export const WEBSITE_FOLDER = '/home/dev/projects/website';

const HOUR = 3_600_000;

export function storedSessions(now: number): StoredSession[] {
  return [
    {
      summary: { session_id: 'stored-config', title: 'Explain how the config is loaded', updated_at_ms: now - 2 * HOUR, message_count: 4, pinned: false, archived: false, tags: [], collection_id: null },
      events: [
        { type: 'turn_started', prompt: 'Explain how the config is loaded' },
        { type: 'tool_call_started', tool_use_id: 'toolu_old_1', name: 'Read' },
        { type: 'tool_call_input', tool_use_id: 'toolu_old_1', name: 'Read', input: { file_path: 'src/config.rs' }, hints: { kind: 'read', title: 'Read src/config.rs', collapsible: true } },
        { type: 'tool_call_result', tool_use_id: 'toolu_old_1', outcome: 'success', content: 'pub fn load(folder: &Path) -> Result<Config> { … }', detail: null },
        { type: 'text_delta', text: '`Config::load` reads `tandem.toml` from the folder, then applies the environment overrides.' },
        { type: 'turn_ended', stop_reason: 'end_turn' },
        { type: 'mode_changed', mode: 'acceptEdits' },
      ],
    },
    {
      summary: { session_id: 'stored-ci', title: 'Fix the flaky CI job', updated_at_ms: now - 3 * 24 * HOUR, message_count: 12, pinned: false, archived: false, tags: [], collection_id: null },
      events: [
        { type: 'turn_started', prompt: 'Fix the flaky CI job' },
        { type: 'text_delta', text: 'The job races the server start; I added a readiness wait.' },
        { type: 'turn_ended', stop_reason: 'end_turn' },
      ],
    },
  ];
}

/**
 * A stored session of another project: forty turns about the site's pages, one (the 31st) about webhook retries,
 * so that opening a search hit for it has to scroll the transcript.
 */
export function websiteSession(now: number): StoredSession {
  const events: SessionEvent[] = [];
  for (let turn = 0; turn < 40; turn += 1) {
    const webhook = turn === 30;
    events.push(
      { type: 'turn_started', prompt: webhook ? 'Why do the webhook retries pile up?' : `Tidy up page ${turn} of the site`, prompt_id: String(turn * 2) },
      { type: 'text_delta', text: webhook ? 'The webhook handler answers 500 before it stores the event, so every delivery is retried and the retries pile up; it now stores first and answers 202.' : `Page ${turn} now uses the shared layout and its links are checked.` },
      { type: 'turn_ended', stop_reason: 'end_turn' },
    );
  }
  return {
    folder: WEBSITE_FOLDER,
    summary: { session_id: 'stored-website', title: 'Tidy up the website', updated_at_ms: now - 26 * HOUR, message_count: 80, pinned: false, archived: false, tags: [], collection_id: null },
    events,
  };
}

/** A stored session of `messages` messages (a prompt and an answer with a read per turn), for measuring memory. */
export function longStoredSession(now: number, messages: number): StoredSession {
  const events: SessionEvent[] = [];
  for (let turn = 0; turn < messages / 2; turn += 1) {
    const id = `toolu_long_read_${turn}`;
    events.push(
      { type: 'turn_started', prompt: `Question ${turn}: what does module ${turn} do?`, prompt_id: String(turn * 2) },
      { type: 'tool_call_started', tool_use_id: id, name: 'Read' },
      { type: 'tool_call_input', tool_use_id: id, name: 'Read', input: { file_path: `src/module_${turn}.rs` }, hints: { kind: 'read', title: `Read src/module_${turn}.rs`, collapsible: true } },
      { type: 'tool_call_result', tool_use_id: id, outcome: 'success', content: `// module ${turn}\npub fn run() {}\n`, detail: null },
    );
    // Stored as the model streamed it: an answer of a few hundred characters in deltas of about eight.
    const answer = `Module ${turn} defines \`run\`, which the entry point calls once the arguments are parsed. `.repeat(4);
    for (let at = 0; at < answer.length; at += 8) events.push({ type: 'text_delta', text: answer.slice(at, at + 8) });
    events.push({ type: 'turn_ended', stop_reason: 'end_turn' });
  }
  return {
    summary: { session_id: 'stored-long', title: `A long session (${messages} messages)`, updated_at_ms: now - 60_000, message_count: messages, pinned: false, archived: false, tags: [], collection_id: null },
    events,
  };
}

/**
 * Sessions external agents ran: `stored-hosted` by `claude` (configured, and it continues its sessions),
 * `stored-hosted-scripted` by `scripted` (configured, but it cannot load sessions), `stored-hosted-gone` by
 * `retired` (no longer configured) and `stored-remote-gone` by a remote folder whose machine cannot be reached.
 */
export function hostedStoredSessions(now: number): StoredSession[] {
  const hosted = (id: string, agent: string, prompt: string, answer: string, hoursAgo: number): StoredSession => ({
    model: `acp:${agent}`,
    summary: { session_id: id, title: prompt, updated_at_ms: now - hoursAgo * HOUR, message_count: 2, pinned: false, archived: false, tags: [], collection_id: null },
    events: [
      { type: 'hosted_session_opened', agent, agent_session_id: `${agent}-1` },
      { type: 'turn_started', prompt, prompt_id: '0' },
      { type: 'text_delta', text: answer },
      { type: 'turn_ended', stop_reason: 'end_turn' },
    ],
  });
  return [
    hosted('stored-hosted', 'claude', 'Sketch the release notes', 'Here is a first sketch of the release notes.', 1),
    hosted('stored-hosted-scripted', 'scripted', 'Take notes', 'Notes taken.', 1.5),
    hosted('stored-hosted-gone', 'retired', 'Tidy the imports', 'The imports are tidy.', 2.5),
    hosted('stored-remote-gone', 'ssh://ann@unreachable-box/srv/app', 'Check the far logs', 'The far logs are clean.', 3),
  ];
}

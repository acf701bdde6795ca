// The pure transcript reducer: folds a session's `EventEnvelope`s into a `Transcript`.
// A session's events are numbered 0, 1, 2, … without gaps and are folded strictly in that order, whatever
// batches they arrive in: one at or below the last folded is a duplicate (dropped), one beyond a gap is held
// in `pending` until the events before it arrive (the session hook asks the backend for them). Events of
// another session are ignored.
import type { EventEnvelope, SessionEvent } from '../generated/protocol';
import { flatten } from './flatString';
import { violationKey } from './sandbox';
import { emptyTranscript, type ToolCall, type Transcript, type TranscriptItem } from './transcript';

/** A mutable working copy of a transcript, used while one batch is applied. */
type Draft = {
  state: Transcript;
  items: TranscriptItem[];
  toolIndex: Record<string, number>;
  /** Items whose text (or tool output) grew by appends in this batch: flattened once at its end. */
  grown: Set<number>;
  /** The event being folded, at the top level (a sub-agent's events fold without it). */
  seq?: number;
};

/** Folds a batch of envelopes into the transcript; returns the same object when nothing changed. */
export function applyEvents(state: Transcript, envelopes: readonly EventEnvelope[]): Transcript {
  let draft: Draft | null = null;
  const current = (): Transcript => (draft ? draft.state : state);
  const fold = (envelope: EventEnvelope) => {
    if (!draft) {
      draft = { state: { ...state }, items: state.items.slice(), toolIndex: { ...state.toolIndex }, grown: new Set() };
      draft.state.items = draft.items;
      draft.state.toolIndex = draft.toolIndex;
    }
    draft.state.sessionId = envelope.session_id;
    draft.state.lastSeq = envelope.seq;
    draft.seq = envelope.seq;
    applyOne(draft, envelope.event, String(envelope.seq));
  };
  /** Folds `envelope` if it is the next one; true when it came after a gap (to hold). */
  const offer = (envelope: EventEnvelope): boolean => {
    const now = current();
    if (now.sessionId !== null && envelope.session_id !== now.sessionId) return false;
    if (envelope.seq <= now.lastSeq) return false;
    if (envelope.seq !== now.lastSeq + 1) return true;
    fold(envelope);
    return false;
  };
  let held: EventEnvelope[] | null = null;
  for (const envelope of envelopes) {
    if (offer(envelope)) (held ??= []).push(envelope);
  }
  let pending = state.pending;
  if (held || (draft && pending.length > 0)) {
    // What waited after a gap, and what this batch brought beyond one: fold what now follows on, hold the rest.
    const waiting = [...pending, ...(held ?? [])].sort((a, b) => a.seq - b.seq);
    const rest: EventEnvelope[] = [];
    for (const envelope of waiting) {
      if (offer(envelope) && rest.at(-1)?.seq !== envelope.seq) rest.push(envelope);
    }
    if (rest.length !== pending.length || rest.some((envelope, i) => envelope !== pending[i])) pending = rest;
  }
  const folded = draft as Draft | null;
  if (folded) {
    flattenGrown(folded);
    folded.state.pending = pending;
    return folded.state;
  }
  return pending === state.pending ? state : { ...state, pending };
}

/** Folds the held events as if the missing ones had arrived: when they can no longer be had. */
export function skipGap(state: Transcript): Transcript {
  const [first] = state.pending;
  if (!first) return state;
  return applyEvents({ ...state, lastSeq: first.seq - 1, pending: [] }, state.pending);
}

/** Flattens the texts that grew by appends in this batch, once each (see flatString.ts). */
function flattenGrown(draft: Draft): void {
  for (const index of draft.grown) {
    const item = draft.items[index];
    if (!item) continue;
    if (item.kind === 'assistant' || item.kind === 'thinking') flatten(item.text);
    else if (item.kind === 'tool') flatten(item.call.progress);
  }
}

/** Folds one envelope. */
export function applyEvent(state: Transcript, envelope: EventEnvelope): Transcript {
  return applyEvents(state, [envelope]);
}

function applyOne(draft: Draft, event: SessionEvent, key: string): void {
  const { state, items } = draft;
  // A retry wait is over once anything else happens: its line stops counting down.
  const last = items[items.length - 1];
  if (last?.kind === 'retry' && !last.settled && event.type !== 'retrying' && event.type !== 'usage_updated') {
    items[items.length - 1] = { ...last, settled: true };
  }
  const outer = outerCall(draft, event);
  if (outer !== null) {
    // A call another call made (REPL, Workflow): shown inside that call.
    updateTool(draft, outer, null, (call) => ({
      ...call,
      inner: foldNested(call.inner ?? emptyTranscript(null), event, `inner:${key}`),
    }));
    return;
  }
  switch (event.type) {
    case 'turn_started':
      state.running = true;
      state.lastStopReason = null;
      items.push(
        event.prompt_id === undefined
          ? { kind: 'user', key, text: event.prompt }
          : { kind: 'user', key, text: event.prompt, promptId: event.prompt_id },
      );
      return;
    case 'prompt_images': {
      // Right after its prompt's turn_started: the images go with that prompt.
      for (let at = items.length - 1; at >= 0; at--) {
        const item = items[at];
        if (item?.kind !== 'user') continue;
        items[at] = { ...item, images: [...(item.images ?? []), ...event.images] };
        return;
      }
      return;
    }
    case 'conversation_rewound': {
      // The prompt and everything after it left the conversation: the transcript shows what the model sees.
      const cut = items.findIndex((item) => item.kind === 'user' && item.promptId === event.prompt_id);
      if (cut < 0) return;
      items.length = cut;
      for (const [id, index] of Object.entries(draft.toolIndex)) {
        if (index >= cut) delete draft.toolIndex[id];
      }
      state.approvals = [];
      state.planReviews = [];
      state.questions = [];
      state.running = false;
      state.lastStopReason = null;
      return;
    }
    case 'text_delta':
    case 'thinking_delta': {
      const kind = event.type === 'text_delta' ? 'assistant' : 'thinking';
      const last = items[items.length - 1];
      if (last && last.kind === kind) {
        items[items.length - 1] = { ...last, text: last.text + event.text };
        draft.grown.add(items.length - 1);
      } else {
        items.push({ kind, key, text: event.text });
      }
      return;
    }
    case 'tool_call_started':
      updateTool(draft, event.tool_use_id, event.name, (call) => call);
      return;
    case 'tool_call_input':
      updateTool(draft, event.tool_use_id, event.name, (call) => ({
        ...call,
        name: event.name,
        input: event.input,
        hints: event.hints,
      }));
      return;
    case 'tool_call_status_changed':
      updateTool(draft, event.tool_use_id, null, (call) => ({
        ...call,
        status: event.status,
        asked: call.asked || event.status === 'waiting_for_approval',
      }));
      return;
    case 'tool_call_decision':
      updateTool(draft, event.tool_use_id, null, (call) => ({ ...call, decision: event.decision }));
      return;
    case 'sandbox_violation':
      updateTool(draft, event.tool_use_id, null, (call) => {
        const seen = call.violations ?? [];
        const key = violationKey(event.violation);
        return seen.some((v) => violationKey(v) === key) ? call : { ...call, violations: [...seen, event.violation] };
      });
      return;
    case 'tool_call_progress':
      {
        const index = draft.toolIndex[event.tool_use_id];
        if (index !== undefined) draft.grown.add(index);
      }
      updateTool(draft, event.tool_use_id, null, (call) => ({
        ...call,
        progress: call.progress + event.text,
      }));
      return;
    case 'tool_call_result':
      updateTool(draft, event.tool_use_id, null, (call) => ({
        ...call,
        status: 'completed',
        result: { outcome: event.outcome, content: event.content, detail: event.detail },
      }));
      return;
    case 'approval_requested':
      if (!state.approvals.some((request) => request.id === event.request.id)) {
        state.approvals = [...state.approvals, event.request];
      }
      return;
    case 'approval_resolved':
      if (state.approvals.some((request) => request.id === event.request_id)) {
        state.approvals = state.approvals.filter((request) => request.id !== event.request_id);
      }
      if (state.planReviews.some((request) => request.id === event.request_id)) {
        state.planReviews = state.planReviews.filter((request) => request.id !== event.request_id);
      }
      if (state.questions.some((request) => request.id === event.request_id)) {
        state.questions = state.questions.filter((request) => request.id !== event.request_id);
      }
      if (state.forms.some((request) => request.id === event.request_id)) {
        state.forms = state.forms.filter((request) => request.id !== event.request_id);
      }
      return;
    case 'plan_review_requested':
      if (!state.planReviews.some((request) => request.id === event.request.id)) {
        state.planReviews = [...state.planReviews, event.request];
      }
      return;
    case 'elicitation_requested':
      if (!state.forms.some((request) => request.id === event.request.id)) {
        state.forms = [...state.forms, event.request];
      }
      return;
    case 'questions_asked':
      if (!state.questions.some((request) => request.id === event.request.id)) {
        state.questions = [...state.questions, event.request];
      }
      return;
    case 'todos_changed':
      state.todos = event.todos;
      return;
    case 'tasks_changed':
      state.tasks = event.tasks;
      return;
    case 'unreadable_settings':
      state.unreadableSettings = event.files;
      return;
    case 'mcp_server_changed':
      state.mcpServers = { ...state.mcpServers, [event.server.name]: event.server };
      return;
    case 'retrying': {
      const item: TranscriptItem = {
        kind: 'retry',
        key,
        attempt: event.attempt,
        waitMs: event.wait_ms,
        reason: event.reason,
      };
      // Consecutive retries of one request show as one line that counts up.
      const last = items[items.length - 1];
      if (last && last.kind === 'retry') items[items.length - 1] = { ...item, key: last.key };
      else items.push(item);
      return;
    }
    case 'usage_updated':
      state.usage = { turn: event.turn, session: event.session, costUsd: event.cost_usd };
      return;
    case 'budget_warning':
      state.budget = { status: event.status, reached: event.reached };
      return;
    case 'turn_ended':
      state.running = false;
      state.turnsEnded += 1;
      state.lastStopReason = event.stop_reason;
      if (event.stop_reason !== 'end_turn') {
        items.push({ kind: 'turn_end', key, stopReason: event.stop_reason });
      }
      return;
    case 'mode_changed':
      state.mode = event.mode;
      return;
    case 'model_changed':
      state.model = event.model;
      return;
    case 'error':
      items.push({ kind: 'error', key, message: event.message });
      return;
    case 'notice':
      items.push({ kind: 'notice', key, message: event.message });
      return;
    case 'hosted_session_opened':
      // Kept for a later run to continue the agent's own session; nothing to show.
      return;
    case 'background_agent_changed': {
      // Each agent keeps its place in the list; its state is replaced.
      const at = state.backgroundAgents.findIndex((agent) => agent.task_id === event.agent.task_id);
      state.backgroundAgents =
        at < 0 ? [...state.backgroundAgents, event.agent] : state.backgroundAgents.map((agent, i) => (i === at ? event.agent : agent));
      return;
    }
    case 'background_shell_changed': {
      // Each shell keeps its place in the list; its state is replaced.
      const at = state.backgroundShells.findIndex((shell) => shell.task_id === event.shell.task_id);
      state.backgroundShells =
        at < 0 ? [...state.backgroundShells, event.shell] : state.backgroundShells.map((shell, i) => (i === at ? event.shell : shell));
      return;
    }
    case 'brief':
      items.push({ kind: 'brief', key, message: event.message, status: event.status });
      return;
    case 'user_file':
      items.push({ kind: 'user_file', key, path: event.path, bytes: event.bytes, caption: event.caption });
      return;
    case 'scheduled_prompts':
      state.scheduledPrompts = event.prompts;
      return;
    case 'push_notification':
      items.push({ kind: 'push_notification', key, title: event.title, message: event.message });
      state.pushes += 1;
      return;
    case 'team_changed': {
      // Each team keeps its place in the list; its state is replaced.
      const at = state.teams.findIndex((team) => team.name === event.team.name);
      state.teams = at < 0 ? [...state.teams, event.team] : state.teams.map((team, i) => (i === at ? event.team : team));
      return;
    }
    case 'sub_agent': {
      // A sub-agent's own conversation, folded into the call that started it (its result reaches that call as a
      // SubAgent detail). A call that started several (a team) keeps one conversation per agent.
      if (draft.toolIndex[event.parent_tool_use_id] === undefined) return;
      updateTool(draft, event.parent_tool_use_id, null, (call) => {
        const fold = (nested: Transcript) => foldNested(nested, event.event, `sub:${key}`);
        if (!call.subAgent || call.subAgent.agentId === event.agent_id) {
          const nested = call.subAgent?.transcript ?? emptyTranscript(null);
          return { ...call, subAgent: { agentId: event.agent_id, transcript: fold(nested) } };
        }
        const others = call.otherAgents ?? [];
        const at = others.findIndex((other) => other.agentId === event.agent_id);
        const nested = others[at]?.transcript ?? emptyTranscript(null);
        const next = { agentId: event.agent_id, transcript: fold(nested) };
        return { ...call, otherAgents: at < 0 ? [...others, next] : others.map((other, i) => (i === at ? next : other)) };
      });
      return;
    }
    default:
      assertNever(event);
  }
}

/** Folds one event of a sub-agent into its own transcript (keys made unique by the parent's event). */
function foldNested(state: Transcript, event: SessionEvent, key: string): Transcript {
  const draft: Draft = { state: { ...state }, items: state.items.slice(), toolIndex: { ...state.toolIndex }, grown: new Set() };
  draft.state.items = draft.items;
  draft.state.toolIndex = draft.toolIndex;
  applyOne(draft, event, key);
  flattenGrown(draft);
  return draft.state;
}

/** Applies `change` to a tool call, creating the call (at the end) when it is new. */
/** The call that made the call `event` is about, when it is one a known call made (its id is `<that id>/<n>`). */
function outerCall(draft: Draft, event: SessionEvent): string | null {
  switch (event.type) {
    case 'tool_call_started':
    case 'tool_call_input':
    case 'tool_call_status_changed':
    case 'tool_call_decision':
    case 'sandbox_violation':
    case 'tool_call_progress':
    case 'tool_call_result': {
      const id = event.tool_use_id;
      const cut = id.lastIndexOf('/');
      if (cut <= 0) return null;
      const outer = id.slice(0, cut);
      return draft.toolIndex[outer] === undefined ? null : outer;
    }
    default:
      return null;
  }
}

function updateTool(
  draft: Draft,
  id: string,
  name: string | null,
  change: (call: ToolCall) => ToolCall,
): void {
  const index = draft.toolIndex[id];
  const existing = index === undefined ? undefined : draft.items[index];
  if (index !== undefined && existing && existing.kind === 'tool') {
    draft.items[index] = { ...existing, call: change(existing.call) };
    return;
  }
  const call: ToolCall = {
    id,
    name: name ?? 'unknown',
    input: null,
    hints: null,
    status: 'queued',
    decision: null,
    asked: false,
    progress: '',
    result: null,
  };
  draft.toolIndex[id] = draft.items.length;
  const item: Extract<TranscriptItem, { kind: 'tool' }> = { kind: 'tool', key: `tool:${id}`, call: change(call) };
  if (draft.seq !== undefined) item.seq = draft.seq;
  draft.items.push(item);
}

function assertNever(value: never): void {
  // A newer engine may send event types this UI does not know yet: ignore them.
  void value;
}

// A scripted fake session for the e2e build: numbers events, batches them every 16 ms onto the
// session channel like the Rust bridge, keeps a log of them (for reopening the session), and
// plays a turn (streamed text, read-only tool calls, a Bash call that needs approval) that an
// interrupt or a refusal cuts short. `/edit`, `/bigdiff` and `/plan` play the scripts of
// fakeEditTurn.ts on the host interface below; `/elicit` plays fakeFormTurn.ts (an MCP server's form).
import type {
  ApprovalAnswer,
  ApprovalRequest,
  ElicitationAnswer,
  ElicitationRequest,
  EventEnvelope,
  PromptImage,
  RenderHints,
  SessionEvent,
  ToolDetail,
  TurnStopReason,
  Usage,
} from '../generated/protocol';
import type { ChannelSender } from './channel';
import { playBrowseTurn } from './fakeBrowseTurn';
import { playBigDiff, playEditTurn, playPlanTurn, type ScriptHost } from './fakeEditTurn';
import { playFormTurn } from './fakeFormTurn';
import { FAKE_ROOT } from './fakeProject';
import { fakeSpent, spendEvents } from './fakeUsage';

export class Interrupted extends Error {}

const usage = (input: number, output: number, cacheRead = 0): Usage => ({
  input_tokens: input,
  output_tokens: output,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: cacheRead,
});

/** The typed detail the engine sends with a read or a search. */
function readDetail(input: unknown, hints: RenderHints, content: string): ToolDetail | null {
  const lines = content.split('\n').filter(Boolean).length;
  const path = (input as { file_path?: unknown }).file_path;
  if (hints.kind === 'read' && typeof path === 'string') {
    return { type: 'read', path: `${FAKE_ROOT}/${path}`, content: { format: 'text', start_line: 1, lines, total_lines: lines } };
  }
  if (hints.kind === 'search') return { type: 'search', files: lines, matches: lines, shown: lines, truncated: false };
  return null;
}

export class FakeSession implements ScriptHost {
  readonly id: string;
  /** Every event this session emitted, in order (replayed when the session reopens; a rewind cuts it). */
  readonly log: SessionEvent[] = [];
  /** The fake files before and after each turn this session played, by the turn's place among its prompts. */
  readonly checkpoints = new Map<number, { before: Map<string, string>; after: Map<string, string> | null }>();
  /** The fake project's files, shared by the sessions of one backend. */
  readonly files: Map<string, string>;
  private seq = 0;
  private queue: EventEnvelope[] = [];
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  private running = false;
  private interrupted = false;
  /** Tool ids used by earlier turns, and those of the running turn (the engine never reuses an id). */
  private earlierIds = new Set<string>();
  private turnIds = new Set<string>();
  private turnOrdinal = 0;
  private approvals = new Map<string, (answer: ApprovalAnswer) => void>();
  private forms = new Map<string, (answer: ElicitationAnswer) => void>();
  private readonly sender: ChannelSender;
  /** Pause between streamed chunks, ms (the e2e build streams visibly but quickly). */
  readonly tick: number;

  constructor(id: string, sender: ChannelSender, files: Map<string, string>, tick = 12) {
    this.id = id;
    this.sender = sender;
    this.files = files;
    this.tick = tick;
  }

  emit(event: SessionEvent): void {
    this.log.push(event);
    this.queue.push({ session_id: this.id, seq: this.seq++, event });
    this.flushTimer ??= setTimeout(() => this.flush(), 16);
  }

  private flush(): void {
    this.flushTimer = null;
    const events = this.queue;
    this.queue = [];
    if (events.length) this.sender.send({ events });
  }

  /** The events numbered after `afterSeq` (all of them when `null`), as the bridge's `session_events` gives them. */
  eventsAfter(afterSeq: number | null): EventEnvelope[] {
    const first = afterSeq === null ? 0 : afterSeq + 1;
    return this.log.slice(first).map((event, at) => ({ session_id: this.id, seq: first + at, event }));
  }

  get isRunning(): boolean {
    return this.running;
  }

  startTurn(prompt: string, images: PromptImage[] = []): void {
    if (this.running) throw { code: 'busy', message: 'A turn is already running' };
    this.running = true;
    this.interrupted = false;
    const checkpoint = { before: new Map(this.files), after: null as Map<string, string> | null };
    const ordinal = this.log.filter((event) => event.type === 'turn_started').length;
    this.checkpoints.set(ordinal, checkpoint);
    for (const id of this.turnIds) this.earlierIds.add(id);
    this.turnIds.clear();
    this.turnOrdinal = ordinal;
    // Like the engine: the prompt's id is its place in the history (two messages per turn here).
    this.emit({ type: 'turn_started', prompt, prompt_id: String(ordinal * 2) });
    if (images.length > 0) this.emit({ type: 'prompt_images', images });
    void this.play(prompt)
      .then((stopReason) => this.emit({ type: 'turn_ended', stop_reason: stopReason ?? 'end_turn' }))
      .catch((error: unknown) => {
        if (error instanceof Interrupted) this.emit({ type: 'turn_ended', stop_reason: 'interrupted' });
        else {
          this.emit({ type: 'error', message: String(error) });
          this.emit({ type: 'turn_ended', stop_reason: 'error' });
        }
      })
      .finally(() => {
        checkpoint.after = new Map(this.files);
        this.running = false;
      });
  }

  toolId(base: string): string {
    this.turnIds.add(base);
    return this.earlierIds.has(base) ? `${base}_t${this.turnOrdinal}` : base;
  }

  /** Whether this session asked the permission request `requestId` and waits for its answer. */
  asks(requestId: string): boolean {
    return this.approvals.has(requestId);
  }

  answer(answer: ApprovalAnswer): void {
    const resolve = this.approvals.get(answer.request_id);
    if (!resolve) throw { code: 'unknown_request', message: `No pending request ${answer.request_id}` };
    this.approvals.delete(answer.request_id);
    this.emit({ type: 'approval_resolved', request_id: answer.request_id });
    resolve(answer);
  }

  /** Whether this session's fake MCP server waits for the answer to form `requestId`. */
  asksForm(requestId: string): boolean {
    return this.forms.has(requestId);
  }

  answerForm(answer: ElicitationAnswer): void {
    const resolve = this.forms.get(answer.request_id);
    if (!resolve) throw { code: 'unknown_request', message: `No pending form ${answer.request_id}` };
    this.forms.delete(answer.request_id);
    this.emit({ type: 'approval_resolved', request_id: answer.request_id });
    resolve(answer);
  }

  /** Emits the form and waits for the person's answer; an interrupt cancels it. */
  async requestForm(request: ElicitationRequest): Promise<ElicitationAnswer> {
    const answer = new Promise<ElicitationAnswer>((resolve) => this.forms.set(request.id, resolve));
    this.emit({ type: 'elicitation_requested', request });
    const result = await answer;
    if (this.interrupted) throw new Interrupted();
    return result;
  }

  interrupt(): void {
    this.interrupted = true;
    for (const [id, resolve] of this.forms) {
      this.emit({ type: 'approval_resolved', request_id: id });
      resolve({ request_id: id, action: 'cancel', content: null });
    }
    this.forms.clear();
    for (const [id, resolve] of this.approvals) {
      this.emit({ type: 'approval_resolved', request_id: id });
      resolve({ request_id: id, choice: 'deny', message: null });
    }
    this.approvals.clear();
  }

  async sleep(ms: number): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, ms));
    if (this.interrupted) throw new Interrupted();
  }

  async stream(type: 'text_delta' | 'thinking_delta', text: string): Promise<void> {
    for (let i = 0; i < text.length; ) {
      const size = 4 + ((i * 7) % 9);
      this.emit({ type, text: text.slice(i, i + size) });
      i += size;
      await this.sleep(this.tick);
    }
  }

  private async readOnlyCall(base: string, name: string, input: unknown, hints: RenderHints, content: string) {
    const id = this.toolId(base);
    this.emit({ type: 'tool_call_started', tool_use_id: id, name });
    this.emit({ type: 'tool_call_input', tool_use_id: id, name, input, hints });
    this.emit({
      type: 'tool_call_decision',
      tool_use_id: id,
      decision: {
        decision: 'allow',
        reason: 'reads inside the working directories are allowed',
        rule: null,
        source: null,
        decided_by: { type: 'working_directories' },
      },
    });
    this.emit({ type: 'tool_call_status_changed', tool_use_id: id, status: 'executing' });
    await this.sleep(this.tick * 6);
    this.emit({ type: 'tool_call_result', tool_use_id: id, outcome: 'success', content, detail: readDetail(input, hints, content) });
  }

  private async play(prompt: string): Promise<TurnStopReason | void> {
    if (prompt.startsWith('/spend')) return this.playSpend();
    if (prompt.startsWith('/long')) return this.playLong(Number(prompt.split(' ')[1] ?? 300));
    if (prompt.startsWith('/edit')) return playEditTurn(this);
    if (prompt.startsWith('/bigdiff')) return playBigDiff(this);
    if (prompt.startsWith('/plan')) return playPlanTurn(this);
    if (prompt.startsWith('/elicit')) return playFormTurn(this);
    if (prompt.startsWith('/browse')) return playBrowseTurn(this);
    await this.sleep(this.tick * 4);
    await this.stream('thinking_delta', `The user asked: "${prompt}". I should look at the entry point and the tests first.`);
    await this.stream('text_delta', "I'll start by reading the entry point and the manifest to see how the project is laid out.");
    await this.readOnlyCall('toolu_read_1', 'Read', { file_path: 'src/main.rs' }, { kind: 'read', title: 'Read src/main.rs', collapsible: true }, 'fn main() {\n    let args = Args::parse();\n    tandem::run(args)\n}\n');
    await this.readOnlyCall('toolu_read_2', 'Read', { file_path: 'Cargo.toml' }, { kind: 'read', title: 'Read Cargo.toml', collapsible: true }, '[package]\nname = "tandem"\nversion = "0.1.0"\nedition = "2021"\n');
    await this.readOnlyCall('toolu_grep_1', 'Grep', { pattern: 'fn run', path: 'src' }, { kind: 'search', title: 'Grep "fn run" in src', collapsible: true }, 'src/lib.rs:12:pub fn run(args: Args) -> Result<()> {\n');
    await this.readOnlyCall('toolu_read_3', 'Read', { file_path: 'src/lib.rs' }, { kind: 'read', title: 'Read src/lib.rs', collapsible: true }, 'pub fn run(args: Args) -> Result<()> {\n    let app = App::new(args)?;\n    app.serve()\n}\n');
    this.emit({ type: 'usage_updated', turn: usage(4210, 180, 2048), session: usage(4210, 180, 2048), cost_usd: 0.0153 });
    await this.stream(
      'text_delta',
      'The entry point hands everything to `tandem::run`:\n\n```rust\npub fn run(args: Args) -> Result<()> {\n    let app = App::new(args)?;\n    app.serve()\n}\n```\n\n| file | role |\n|---|---|\n| `src/main.rs` | parses arguments |\n| `src/lib.rs` | builds and serves the app |\n\nLet me run the test suite to see where things stand.',
    );
    const bash = this.toolId('toolu_bash_1');
    const answer = await this.askForBash(bash, 'cargo test --workspace', 'Run the test suite');
    if (answer.choice === 'deny') {
      this.emit({ type: 'tool_call_decision', tool_use_id: bash, decision: { decision: 'deny', reason: answer.message ? `You said no: ${answer.message}` : 'You said no', rule: null, source: null, decided_by: null } });
      this.emit({ type: 'tool_call_result', tool_use_id: bash, outcome: 'denied', content: 'The user refused this command.', detail: null });
      await this.stream('text_delta', "Understood — I won't run the tests. Tell me what you would like me to do instead.");
      return;
    }
    this.emit({
      type: 'tool_call_decision',
      tool_use_id: bash,
      decision: answer.choice === 'allow_always'
        ? { decision: 'allow', reason: 'You allowed it and saved the rule Bash(cargo test *)', rule: 'Bash(cargo test *)', source: '.claude/settings.local.json', decided_by: null }
        : { decision: 'allow', reason: 'You allowed it once', rule: null, source: null, decided_by: null },
    });
    this.emit({ type: 'tool_call_status_changed', tool_use_id: bash, status: 'executing' });
    const output = ['   Compiling tandem v0.1.0 (/home/dev/projects/tandem)', '    Finished `test` profile [unoptimized + debuginfo] target(s) in 3.21s', '     Running unittests src/lib.rs', '', 'running 42 tests', 'test result: ok. 42 passed; 0 failed; 0 ignored; finished in 0.31s'];
    for (const line of output) {
      this.emit({ type: 'tool_call_progress', tool_use_id: bash, text: `${line}\n` });
      await this.sleep(this.tick * 3);
    }
    this.emit({ type: 'tool_call_result', tool_use_id: bash, outcome: 'success', content: output.join('\n'), detail: { type: 'shell', exit_code: 0, cwd: FAKE_ROOT, cwd_reset: false } });
    this.emit({ type: 'usage_updated', turn: usage(9350, 412, 6144), session: usage(9350, 412, 6144), cost_usd: 0.0388 });
    await this.stream('text_delta', 'All **42 tests** pass. The project builds cleanly, so we can start on the change whenever you are ready.');
  }

  /**
   * A turn that spends: the first `/spend` crosses the daily budget's warning share (84%) and ends; the next reaches
   * the budget, which (set to stop) ends the turn before its next request.
   */
  private async playSpend(): Promise<TurnStopReason> {
    const spend = spendEvents();
    const warned = fakeSpent.day >= spend.warning.spent_usd;
    const status = warned ? spend.reached : spend.warning;
    spend.spendTo(status.spent_usd);
    const file = warned ? 'src/main.rs' : 'src/lib.rs';
    await this.readOnlyCall(this.toolId(warned ? 'toolu_spend_2' : 'toolu_spend_1'), 'Read', { file_path: file }, { kind: 'read', title: `Read ${file}`, collapsible: true }, 'pub fn run() {}\n');
    this.emit({ type: 'budget_warning', status, reached: warned });
    if (!warned) {
      await this.stream('text_delta', 'Read it. That request took the day past 80% of its budget.');
      return 'end_turn';
    }
    this.emit({ type: 'notice', message: spend.notice });
    return spend.stopReason;
  }

  /** A long turn: `lines` paragraphs, one per tick, with a read-only call every 25 lines. */
  private async playLong(lines: number): Promise<void> {
    for (let line = 1; line <= lines; line += 1) {
      if (line % 25 === 0) {
        await this.readOnlyCall(`toolu_long_${line}`, 'Read', { file_path: `src/module_${line}.rs` }, { kind: 'read', title: `Read src/module_${line}.rs`, collapsible: true }, `// module ${line}\n`);
      }
      this.emit({ type: 'text_delta', text: `Line ${line}: the agent keeps explaining what it found in \`module_${line}\`.\n\n` });
      await this.sleep(this.tick);
    }
  }

  private async askForBash(id: string, command: string, description: string): Promise<ApprovalAnswer> {
    const hints: RenderHints = { kind: 'shell', title: `Run ${command}`, collapsible: false };
    this.emit({ type: 'tool_call_started', tool_use_id: id, name: 'Bash' });
    this.emit({ type: 'tool_call_input', tool_use_id: id, name: 'Bash', input: { command, description }, hints });
    this.emit({ type: 'tool_call_status_changed', tool_use_id: id, status: 'waiting_for_approval' });
    return this.requestApproval({
      id: `req_${id}`,
      session_id: this.id,
      tool_use_id: id,
      tool_name: 'Bash',
      kind: 'shell',
      input: { command, description },
      title: `Run ${command}`,
      reason: 'No rule allows Bash(cargo test --workspace), and default mode asks before running commands',
      decided_by: { type: 'mode', mode: 'default' },
      trace: {
        steps: [
          { type: 'mode', mode: 'default' },
          {
            type: 'hook',
            event: 'PreToolUse',
            command: './scripts/audit-command.sh',
            source: '.claude/settings.json',
            outcome: 'exit 0',
            decision: null,
            reason: null,
          },
        ],
        decided_by: { type: 'mode', mode: 'default' },
      },
      suggestion: { rules: ['Bash(cargo test *)'], destination: '.claude/settings.local.json' },
      diff: null,
    });
  }

  /**
   * Emits the request and waits for the answer; an interrupt cancels the call. The request's id is made the
   * session's own (`<id>@<session>`), as the engine's are unique, so two sessions playing the same script ask apart.
   */
  async requestApproval(asked: ApprovalRequest): Promise<ApprovalAnswer> {
    const request = { ...asked, id: `${asked.id}@${this.id}` };
    const answer = new Promise<ApprovalAnswer>((resolve) => this.approvals.set(request.id, resolve));
    this.emit({ type: 'approval_requested', request });
    const result = await answer;
    if (this.interrupted) {
      this.emit({ type: 'tool_call_result', tool_use_id: request.tool_use_id, outcome: 'cancelled', content: 'Interrupted', detail: null });
      throw new Interrupted();
    }
    return result;
  }
}

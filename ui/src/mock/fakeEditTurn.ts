// Scripted turns of the e2e fake backend that change files and modes: `/edit` (an Edit the user
// accepts in the diff dialog, a second one the user rejects with a message, then a Bash call
// streaming ANSI-coloured output with carriage-return progress), `/bigdiff` (an Edit of a
// 5,000-line file, then a new 5,000-line file, for timing the dialog) and `/plan` (a tool
// entering plan mode).
import type { ApprovalAnswer, ApprovalRequest, FileDiff, RenderHints, SessionEvent } from '../generated/protocol';
import { bigFile, FAKE_ROOT } from './fakeProject';

/** The settings file "don't ask again" writes to. */
const LOCAL_SETTINGS = `${FAKE_ROOT}/.claude/settings.local.json`;

/** What a script needs of its session. */
export type ScriptHost = {
  readonly id: string;
  readonly tick: number;
  readonly files: Map<string, string>;
  emit: (event: SessionEvent) => void;
  sleep: (ms: number) => Promise<void>;
  stream: (type: 'text_delta' | 'thinking_delta', text: string) => Promise<void>;
  requestApproval: (request: ApprovalRequest) => Promise<ApprovalAnswer>;
  /** The tool_use_id for `base` in this turn: `base` itself unless an earlier turn used it. */
  toolId: (base: string) => string;
};

/** A change of one file: each [old, new] pair replaced everywhere in it. */
type Replacement = { path: string; pairs: [old: string, new: string][] };

/** Proposes an edit, asks with its diff, and applies it when allowed; resolves to the answer. */
async function editWithApproval(host: ScriptHost, base: string, change: Replacement): Promise<ApprovalAnswer> {
  const id = host.toolId(base);
  const path = `${FAKE_ROOT}/${change.path}`;
  const before = host.files.get(path) ?? '';
  const after = change.pairs.reduce((text, [old, next]) => text.split(old).join(next), before);
  const [first] = change.pairs;
  const input = { file_path: path, old_string: first?.[0] ?? '', new_string: first?.[1] ?? '', replace_all: true };
  const hints: RenderHints = { kind: 'edit', title: `Edit ${change.path}`, collapsible: false };
  const diff: FileDiff = { path, old_text: before, new_text: after, is_new_file: false };
  host.emit({ type: 'tool_call_started', tool_use_id: id, name: 'Edit' });
  host.emit({ type: 'tool_call_input', tool_use_id: id, name: 'Edit', input, hints });
  host.emit({ type: 'tool_call_status_changed', tool_use_id: id, status: 'waiting_for_approval' });
  const answer = await host.requestApproval({
    id: `req_${id}`,
    session_id: host.id,
    tool_use_id: id,
    tool_name: 'Edit',
    kind: 'edit',
    input,
    title: `Edit ${change.path}`,
    reason: 'Default mode asks before editing files',
    decided_by: { type: 'mode', mode: 'default' },
    trace: { steps: [{ type: 'mode', mode: 'default' }], decided_by: { type: 'mode', mode: 'default' } },
    suggestion: { rules: ['Edit(src/**)'], destination: '.claude/settings.local.json' },
    diff,
  });
  if (answer.choice === 'deny') {
    const reason = answer.message ? `You rejected the change: ${answer.message}` : 'You rejected the change';
    host.emit({ type: 'tool_call_decision', tool_use_id: id, decision: { decision: 'deny', reason, rule: null, source: null, decided_by: null } });
    host.emit({ type: 'tool_call_result', tool_use_id: id, outcome: 'denied', content: 'The file was left unchanged.', detail: null });
    return answer;
  }
  host.emit({
    type: 'tool_call_decision',
    tool_use_id: id,
    decision: { decision: 'allow', reason: answer.choice === 'allow_always' ? 'You allowed it and saved Edit(src/**)' : 'You accepted the change', rule: null, source: null, decided_by: null },
  });
  host.emit({ type: 'tool_call_status_changed', tool_use_id: id, status: 'executing' });
  await host.sleep(host.tick * 3);
  host.files.set(path, after);
  host.emit({
    type: 'tool_call_result',
    tool_use_id: id,
    outcome: 'success',
    content: `Edited ${path}`,
    detail: { type: 'file_change', path, created: false, replacements: 1, hunks: [], diff, cell: null },
  });
  return answer;
}

const CSI = '\u001b[';
const green = (text: string) => `${CSI}1;32m${text}${CSI}0m`;
const red = (text: string) => `${CSI}1;31m${text}${CSI}0m`;
const cyan = (text: string) => `${CSI}36m${text}${CSI}0m`;
const dim = (text: string) => `${CSI}2m${text}${CSI}0m`;

/** A Bash call allowed by a rule, streaming coloured output and a progress bar drawn with \r. */
async function coloredTestRun(host: ScriptHost, base: string): Promise<void> {
  const id = host.toolId(base);
  const command = 'cargo test --workspace';
  host.emit({ type: 'tool_call_started', tool_use_id: id, name: 'Bash' });
  host.emit({ type: 'tool_call_input', tool_use_id: id, name: 'Bash', input: { command }, hints: { kind: 'shell', title: `Run ${command}`, collapsible: false } });
  host.emit({
    type: 'tool_call_decision',
    tool_use_id: id,
    decision: {
      decision: 'allow',
      reason: 'Allowed by Bash(cargo test *)',
      rule: 'Bash(cargo test *)',
      source: LOCAL_SETTINGS,
      decided_by: { type: 'rule', rule: 'Bash(cargo test *)', behavior: 'allow', scope: 'localSettings', file: LOCAL_SETTINGS },
    },
  });
  host.emit({ type: 'tool_call_status_changed', tool_use_id: id, status: 'executing' });
  const progress = (text: string) => host.emit({ type: 'tool_call_progress', tool_use_id: id, text });
  for (let done = 0; done <= 12; done += 3) {
    progress(`\r${cyan('    Building')} [${'='.repeat(done * 2)}>${' '.repeat(24 - done * 2)}] ${done}/12: tandem`);
    await host.sleep(host.tick * 2);
  }
  progress(`\r${CSI}K${green('   Compiling')} tandem v0.1.0 (${FAKE_ROOT})\n`);
  progress(`${green('    Finished')} \`test\` profile [unoptimized + debuginfo] target(s) in 2.87s\n`);
  progress(`${green('     Running')} unittests src/lib.rs ${dim('(target/debug/deps/tandem-3f2a)')}\n\nrunning 3 tests\n`);
  for (const name of ['tests::starts_on_a_free_port', 'tests::reports_a_missing_folder', 'config::tests::defaults']) {
    await host.sleep(host.tick * 2);
    progress(`test ${name} ... ${green('ok')}\n`);
  }
  progress(`\ntest result: ${green('ok')}. 3 passed; ${red('0 failed')}; 0 ignored; finished in 0.02s\n`);
  host.emit({
    type: 'tool_call_result',
    tool_use_id: id,
    outcome: 'success',
    content: 'test result: ok. 3 passed; 0 failed',
    detail: { type: 'shell', exit_code: 0, cwd: FAKE_ROOT, cwd_reset: false },
  });
}

export async function playEditTurn(host: ScriptHost): Promise<void> {
  await host.stream('text_delta', "I'll rename `serve` to `start` in the library, then update the binary.");
  const first = await editWithApproval(host, 'toolu_edit_1', {
    path: 'src/lib.rs',
    pairs: [
      ['/// Serves requests until the process is stopped.\n    pub fn serve(self)', '/// Starts serving requests; returns when the process is stopped.\n    pub fn start(self)'],
      ['app.serve()', 'app.start()'],
    ],
  });
  if (first.choice === 'deny') {
    await host.stream('text_delta', 'Understood, I left `src/lib.rs` as it was.');
    return;
  }
  const second = await editWithApproval(host, 'toolu_edit_2', {
    path: 'src/main.rs',
    pairs: [['    tandem::run(args)\n', '    let code = tandem::run(args);\n    std::process::exit(if code.is_ok() { 0 } else { 1 })\n']],
  });
  if (second.choice === 'deny') {
    await host.stream('text_delta', `Understood${second.message ? ` ("${second.message}")` : ''}: I kept \`main.rs\` as it was. Let me run the tests.`);
  }
  await coloredTestRun(host, 'toolu_bash_color');
  await host.stream('text_delta', 'The rename is in and all **3 tests** pass.');
}

export async function playBigDiff(host: ScriptHost): Promise<void> {
  await host.stream('text_delta', 'Updating the handlers to the new response type.');
  await editWithApproval(host, 'toolu_edit_big', { path: 'src/handlers.rs', pairs: [['respond(request, 25', 'respond_with(request, 25']] });
  await writeWithApproval(host, 'toolu_write_big', 'src/generated.rs', bigFile(5000));
}

/** Proposes a new file, asks with its diff, and creates it when allowed. */
async function writeWithApproval(host: ScriptHost, base: string, relative: string, content: string): Promise<void> {
  const id = host.toolId(base);
  const path = `${FAKE_ROOT}/${relative}`;
  const input = { file_path: path, content };
  const diff: FileDiff = { path, old_text: '', new_text: content, is_new_file: true };
  host.emit({ type: 'tool_call_started', tool_use_id: id, name: 'Write' });
  host.emit({ type: 'tool_call_input', tool_use_id: id, name: 'Write', input, hints: { kind: 'write', title: `Write ${relative}`, collapsible: false } });
  host.emit({ type: 'tool_call_status_changed', tool_use_id: id, status: 'waiting_for_approval' });
  const answer = await host.requestApproval({
    id: `req_${id}`,
    session_id: host.id,
    tool_use_id: id,
    tool_name: 'Write',
    kind: 'write',
    input,
    title: `Write ${relative}`,
    reason: 'Default mode asks before creating files',
    decided_by: { type: 'mode', mode: 'default' },
    trace: { steps: [{ type: 'mode', mode: 'default' }], decided_by: { type: 'mode', mode: 'default' } },
    suggestion: null,
    diff,
  });
  if (answer.choice === 'deny') {
    host.emit({ type: 'tool_call_result', tool_use_id: id, outcome: 'denied', content: 'You rejected the new file', detail: null });
    return;
  }
  host.files.set(path, content);
  host.emit({
    type: 'tool_call_result',
    tool_use_id: id,
    outcome: 'success',
    content: `Created ${path}`,
    detail: { type: 'file_change', path, created: true, replacements: null, hunks: [], diff, cell: null },
  });
}

export async function playPlanTurn(host: ScriptHost): Promise<void> {
  const id = host.toolId('toolu_plan_1');
  host.emit({ type: 'tool_call_started', tool_use_id: id, name: 'EnterPlanMode' });
  host.emit({ type: 'tool_call_input', tool_use_id: id, name: 'EnterPlanMode', input: {}, hints: { kind: 'other', title: 'Enter plan mode', collapsible: false } });
  host.emit({ type: 'tool_call_result', tool_use_id: id, outcome: 'success', content: 'Entered plan mode', detail: null });
  host.emit({ type: 'mode_changed', mode: 'plan' });
  await host.stream('text_delta', "I'm in plan mode now: I'll read and propose a plan before changing anything.");
}

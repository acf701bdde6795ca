// Tests of transcript rendering: each kind of row, tool call attributes and states, the folding
// of read-only calls into a summary that expands, markdown with highlighted code, and that a
// large transcript keeps only what is on screen in the DOM, and sub-agents and the calls a call made (REPL,
// Workflow) nested in their calls.
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PermissionDecision, SessionEvent } from '../../generated/protocol';
import { applyEvents } from '../../state/reduce';
import { emptyTranscript } from '../../state/transcript';
import { envelopes, hints, readCall } from '../../test/events';
import { installFakeIpc } from '../../test/fakeIpc';
import { App } from '../app/App';
import { Transcript } from './Transcript';

function renderEvents(events: SessionEvent[]) {
  const state = applyEvents(emptyTranscript(), envelopes(events));
  return render(<Transcript items={state.items} />);
}

const bash = (id: string, extra: SessionEvent[] = []): SessionEvent[] => [
  { type: 'tool_call_started', tool_use_id: id, name: 'Bash' },
  { type: 'tool_call_input', tool_use_id: id, name: 'Bash', input: { command: 'make' }, hints: hints('shell', 'Run make') },
  ...extra,
];

describe('rows', () => {
  it('renders prompts, markdown text with highlighted code, errors, notices and retries', async () => {
    const { container } = renderEvents([
      { type: 'turn_started', prompt: 'Show me' },
      { type: 'text_delta', text: 'Here:\n\n```rust\nfn main() {}\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n' },
      { type: 'error', message: 'Overloaded' },
      { type: 'notice', message: 'Compacted' },
      { type: 'retrying', attempt: 2, wait_ms: 3000, reason: 'overloaded_error' },
    ]);
    expect(screen.getByTestId('user-prompt')).toHaveTextContent('Show me');
    const text = screen.getByTestId('assistant-text');
    // The markdown renderer loads with the first text that needs it.
    await waitFor(() => expect(text.querySelector('pre code.hljs.language-rust')).not.toBeNull());
    expect(text.querySelector('.hljs-keyword')).toHaveTextContent('fn');
    expect(text.querySelector('table td')).toHaveTextContent('1');
    expect(screen.getByTestId('error-banner')).toHaveTextContent('Overloaded');
    expect(screen.getByTestId('notice')).toHaveTextContent('Compacted');
    expect(screen.getByTestId('retry-notice')).toHaveTextContent('Retrying in 3 s (attempt 2)');
    expect(container.querySelectorAll('[data-testid="transcript"] .transcript-row')).toHaveLength(5);
  });

  it('stops counting down a retry once the request is answered or has failed for good', () => {
    renderEvents([
      { type: 'turn_started', prompt: 'Go' },
      { type: 'retrying', attempt: 2, wait_ms: 1000, reason: 'overloaded_error' },
      { type: 'retrying', attempt: 3, wait_ms: 0, reason: 'overloaded_error' },
      { type: 'error', message: 'the model is overloaded' },
      { type: 'turn_ended', stop_reason: 'error' },
    ]);
    const retry = screen.getByTestId('retry-notice');
    expect(retry).toHaveTextContent('Tried 3 times · overloaded_error');
    expect(retry).not.toHaveTextContent('Retrying in');
  });

  it('keeps links from navigating the webview', async () => {
    renderEvents([{ type: 'text_delta', text: 'See [docs](https://example.com).' }]);
    const link = await screen.findByRole('link', { name: 'docs' });
    const click = new MouseEvent('click', { bubbles: true, cancelable: true });
    link.dispatchEvent(click);
    expect(click.defaultPrevented).toBe(true);
    await Promise.resolve();
  });

  it('collapses thinking to one line until expanded', async () => {
    renderEvents([{ type: 'thinking_delta', text: 'First thought\nsecond thought' }]);
    const thinking = screen.getByTestId('thinking');
    expect(thinking).toHaveTextContent('First thought');
    expect(thinking).not.toHaveTextContent('second thought');
    await userEvent.click(within(thinking).getByRole('button'));
    expect(thinking).toHaveTextContent('second thought');
  });
});

describe('tool calls', () => {
  it('exposes name, status and outcome as attributes', () => {
    renderEvents([...readCall('a', 'src/main.rs'), ...bash('b')]);
    const [read, run] = screen.getAllByTestId('tool-call');
    expect(read).toHaveAttribute('data-tool-name', 'Read');
    expect(read).toHaveAttribute('data-status', 'completed');
    expect(read).toHaveAttribute('data-outcome', 'success');
    expect(read).toHaveTextContent('Read src/main.rs');
    expect(run).toHaveAttribute('data-status', 'queued');
    expect(run).toHaveAttribute('data-outcome', 'none');
  });

  it('draws every state with its own icon', () => {
    const finished = (id: string, outcome: 'success' | 'error' | 'denied' | 'cancelled'): SessionEvent[] =>
      bash(id, [{ type: 'tool_call_result', tool_use_id: id, outcome, content: `${outcome}!`, detail: null }]);
    renderEvents([
      ...bash('q'),
      ...bash('w', [{ type: 'tool_call_status_changed', tool_use_id: 'w', status: 'waiting_for_approval' }]),
      ...bash('r', [{ type: 'tool_call_status_changed', tool_use_id: 'r', status: 'executing' }]),
      ...finished('s', 'success'),
      ...finished('e', 'error'),
      ...finished('d', 'denied'),
      ...finished('c', 'cancelled'),
    ]);
    const states = screen.getAllByTestId('status-icon').map((icon) => icon.dataset.state);
    expect(states).toEqual(['queued', 'waiting', 'running', 'success', 'error', 'denied', 'cancelled']);
    const icons = screen.getAllByTestId('status-icon').map((icon) => icon.innerHTML);
    expect(new Set(icons).size).toBe(7);
    expect(screen.getAllByTestId('tool-call')[4]).toHaveTextContent('error!');
  });

  it('shows the reason of a decision the user or a rule made and what decided it, not a plain allow by mode', () => {
    const rule = { type: 'rule', rule: 'Bash(rm *)', behavior: 'deny', scope: 'projectSettings', file: '.claude/settings.json' } as const;
    // A decision stored before the typed source: the old source text stands in for it.
    const stored = { decision: 'deny', reason: 'Denied by rule Bash(curl *)', rule: 'Bash(curl *)', source: '~/.claude/settings.json' };
    renderEvents([
      ...bash('a', [
        { type: 'tool_call_decision', tool_use_id: 'a', decision: { decision: 'deny', reason: 'Denied', rule: 'Bash(rm *)', source: '.claude/settings.json', decided_by: rule } },
      ]),
      ...bash('b', [
        { type: 'tool_call_decision', tool_use_id: 'b', decision: { decision: 'allow', reason: 'Allowed in default mode', rule: null, source: null, decided_by: { type: 'mode', mode: 'default' } } },
      ]),
      ...bash('c', [
        { type: 'tool_call_status_changed', tool_use_id: 'c', status: 'waiting_for_approval' },
        { type: 'tool_call_decision', tool_use_id: 'c', decision: { decision: 'allow', reason: 'You allowed it', rule: null, source: null, decided_by: null } },
      ]),
      ...bash('d', [{ type: 'tool_call_decision', tool_use_id: 'd', decision: stored as PermissionDecision }]),
    ]);
    const reasons = screen.getAllByTestId('tool-decision').map((node) => node.textContent);
    expect(reasons).toEqual([
      'Denied · Rule Bash(rm *) in .claude/settings.json',
      'You allowed it',
      'Denied by rule Bash(curl *) · ~/.claude/settings.json',
    ]);
  });

  it('says a call the person allowed was allowed, not that it needs approval', () => {
    const asked = { decision: 'ask', reason: 'needs approval: `touch b.txt` changes files', rule: null, source: null, decided_by: { type: 'mode', mode: 'default' } } as const;
    renderEvents([
      ...bash('w', [
        { type: 'tool_call_decision', tool_use_id: 'w', decision: asked },
        { type: 'tool_call_status_changed', tool_use_id: 'w', status: 'waiting_for_approval' },
      ]),
      ...bash('y', [
        { type: 'tool_call_decision', tool_use_id: 'y', decision: asked },
        { type: 'tool_call_status_changed', tool_use_id: 'y', status: 'waiting_for_approval' },
        { type: 'tool_call_status_changed', tool_use_id: 'y', status: 'executing' },
        { type: 'tool_call_result', tool_use_id: 'y', outcome: 'success', content: '', detail: null },
      ]),
    ]);
    const [waiting, allowed] = screen.getAllByTestId('tool-decision').map((node) => node.textContent);
    expect(waiting).toMatch(/^needs approval: `touch b.txt` changes files/);
    expect(allowed).toMatch(/^Allowed by you — it asked because `touch b.txt` changes files/);
    expect(allowed).not.toContain('needs approval');
  });

  it('switches on the kind of work and the detail, not on the tool name', () => {
    renderEvents([
      { type: 'tool_call_started', tool_use_id: 's', name: 'RunInSandbox' },
      { type: 'tool_call_input', tool_use_id: 's', name: 'RunInSandbox', input: {}, hints: hints('shell', 'Run make') },
      { type: 'tool_call_progress', tool_use_id: 's', text: 'making\n' },
      {
        type: 'tool_call_result',
        tool_use_id: 's',
        outcome: 'success',
        content: 'made',
        detail: { type: 'shell', exit_code: 0, cwd: '/p/sub', cwd_reset: true },
      },
      { type: 'tool_call_started', tool_use_id: 'r', name: 'Fetch' },
      { type: 'tool_call_input', tool_use_id: 'r', name: 'Fetch', input: {}, hints: hints('read', 'Read a.ts') },
      {
        type: 'tool_call_result',
        tool_use_id: 'r',
        outcome: 'success',
        content: '…',
        detail: { type: 'read', path: '/p/a.ts', content: { format: 'text', start_line: 11, lines: 30, total_lines: 120 } },
      },
    ]);
    const [shell, read] = screen.getAllByTestId('tool-call');
    expect(within(shell as HTMLElement).getByTestId('shell-output')).toHaveTextContent('making');
    expect(within(shell as HTMLElement).getByTestId('tool-facts')).toHaveTextContent('Working directory reset to /p/sub');
    expect(within(read as HTMLElement).getByTestId('tool-facts')).toHaveTextContent('Lines 11–40 of 120');
  });

  it('streams shell progress into ShellOutput and expands the result', async () => {
    renderEvents(
      bash('a', [
        { type: 'tool_call_status_changed', tool_use_id: 'a', status: 'executing' },
        { type: 'tool_call_progress', tool_use_id: 'a', text: 'building…\n' },
        { type: 'tool_call_progress', tool_use_id: 'a', text: 'done\n' },
        { type: 'tool_call_result', tool_use_id: 'a', outcome: 'success', content: 'exit 0', detail: null },
      ]),
    );
    expect(screen.getByTestId('shell-output').textContent).toBe('building…\ndone\n');
    expect(screen.queryByTestId('tool-result')).not.toBeInTheDocument();
    await userEvent.click(within(screen.getByTestId('tool-call')).getByRole('button'));
    expect(screen.getByTestId('tool-result')).toHaveTextContent('exit 0');
  });
});

describe('MCP results', () => {
  it('shows an MCP result\'s structured content and _meta when the call is expanded', async () => {
    renderEvents([
      { type: 'tool_call_started', tool_use_id: 'm', name: 'mcp__calc__add' },
      { type: 'tool_call_input', tool_use_id: 'm', name: 'mcp__calc__add', input: { a: 2, b: 1 }, hints: hints('other', 'Add') },
      {
        type: 'tool_call_result',
        tool_use_id: 'm',
        outcome: 'success',
        content: '3',
        detail: { type: 'mcp', server: 'calc', tool: 'add', structured_content: { sum: 3 }, meta: { 'ui/resourceUri': 'ui://add' } },
      },
      { type: 'tool_call_started', tool_use_id: 'n', name: 'mcp__calc__echo' },
      { type: 'tool_call_input', tool_use_id: 'n', name: 'mcp__calc__echo', input: {}, hints: hints('other', 'Echo') },
      {
        type: 'tool_call_result',
        tool_use_id: 'n',
        outcome: 'success',
        content: 'hi',
        detail: { type: 'mcp', server: 'calc', tool: 'echo', structured_content: null },
      },
    ]);
    const [add, echo] = screen.getAllByTestId<HTMLElement>('tool-call');
    expect(within(add!).getByTestId('tool-facts')).toHaveTextContent('calc › add');
    await userEvent.click(within(add!).getAllByRole('button')[0]!);
    expect(within(add!).getByTestId('tool-structured')).toHaveTextContent('"sum": 3');
    expect(within(add!).getByTestId('tool-meta')).toHaveTextContent('ui://add');
    await userEvent.click(within(echo!).getAllByRole('button')[0]!);
    expect(within(echo!).getByTestId('tool-result')).toHaveTextContent('hi');
    expect(within(echo!).queryByTestId('tool-structured')).not.toBeInTheDocument();
    expect(within(echo!).queryByTestId('tool-meta')).not.toBeInTheDocument();
  });
});

describe('following the turn', () => {
  it('brings the view back to the bottom when a new prompt is sent while scrolled up', () => {
    const first = applyEvents(emptyTranscript(), envelopes([
      { type: 'turn_started', prompt: 'First' },
      { type: 'text_delta', text: 'A long answer' },
      { type: 'turn_ended', stop_reason: 'end_turn' },
    ]));
    const { rerender } = render(<Transcript items={first.items} />);
    const scroller = screen.getByTestId('transcript');
    Object.defineProperty(scroller, 'scrollHeight', { configurable: true, get: () => 5000 });
    // The person scrolls up to read: the view stops following.
    scroller.scrollTop = 4200;
    fireEvent.scroll(scroller);
    scroller.scrollTop = 1000;
    fireEvent.scroll(scroller);
    expect(screen.getByTestId('scroll-to-bottom')).toBeInTheDocument();

    const second = applyEvents(first, envelopes([{ type: 'turn_started', prompt: 'Second' }], 3));
    rerender(<Transcript items={second.items} />);
    expect(scroller.scrollTop).toBe(5000);
    expect(screen.queryByTestId('scroll-to-bottom')).not.toBeInTheDocument();
  });
});

describe('the working line', () => {
  it('is drawn inside the last row, so the row and the line are measured together', () => {
    const state = applyEvents(emptyTranscript(), envelopes([
      { type: 'turn_started', prompt: 'Touch the files' },
      ...bash('t', [
        { type: 'tool_call_decision', tool_use_id: 't', decision: { decision: 'allow', reason: 'the command is allowed by the allow rule', rule: 'Bash(touch *)', source: '.claude/settings.json', decided_by: null } },
      ]),
    ]));
    render(<Transcript items={state.items} footer={<div data-testid="working">Working…</div>} />);
    const rows = [...document.querySelectorAll('.transcript-row')];
    const last = rows.at(-1);
    expect(last?.querySelector('[data-testid="tool-decision"]')).not.toBeNull();
    expect(last?.querySelector('[data-testid="working"]')).not.toBeNull();
    expect(screen.getAllByTestId('working')).toHaveLength(1);
  });

  it('shows on its own before there is any row', () => {
    render(<Transcript items={[]} footer={<div data-testid="working">Working…</div>} />);
    expect(screen.getByTestId('working')).toBeInTheDocument();
  });
});

describe('revised file changes', () => {
  it('shows a partly accepted edit as it is on disk and says it was revised', async () => {
    const before = "greeting = 'hi'\nfarewell = 'bye'\n";
    const written = "greeting = 'hello'\nfarewell = 'bye'\n";
    renderEvents([
      { type: 'tool_call_started', tool_use_id: 'e', name: 'Edit' },
      {
        type: 'tool_call_input',
        tool_use_id: 'e',
        name: 'Edit',
        input: { file_path: '/p/app.py', old_string: before, new_string: "greeting = 'hello'\nfarewell = 'goodbye'\n" },
        hints: hints('edit', 'Edit app.py'),
      },
      {
        type: 'tool_call_result',
        tool_use_id: 'e',
        outcome: 'success',
        content: 'The file /p/app.py has been updated with the parts of the change the user accepted.',
        detail: {
          type: 'file_change',
          path: '/p/app.py',
          created: false,
          replacements: null,
          hunks: [{ old_start: 1, old_lines: 2, new_start: 1, new_lines: 2, lines: ["-greeting = 'hi'", "+greeting = 'hello'", " farewell = 'bye'"] }],
          diff: { path: '/p/app.py', old_text: before, new_text: written, is_new_file: false },
          cell: null,
          revised: { rejected_hunks: [2], total_hunks: 2, edited: false },
        },
      },
    ]);
    expect(screen.getByTestId('tool-facts')).toHaveTextContent('Revised: you accepted 1 of 2 hunks; the diff shows the file as written');
    await userEvent.click(screen.getByTestId('tool-diff-toggle'));
    const diff = screen.getByTestId('tool-diff');
    expect(diff).toHaveTextContent("greeting = 'hello'");
    expect(diff).not.toHaveTextContent('goodbye');
  });
});

describe('folding read-only calls', () => {
  const events: SessionEvent[] = [
    { type: 'text_delta', text: 'Looking around.' },
    ...readCall('a', 'a.rs'),
    ...readCall('b', 'b.rs'),
    ...readCall('p', 'fn main', 'search'),
    ...readCall('c', 'c.rs'),
    ...readCall('q', 'TODO', 'search'),
  ];

  it('folds consecutive reads and searches into one summary line', () => {
    renderEvents(events);
    expect(screen.getByTestId('tool-group-summary')).toHaveTextContent('Read 3 files, searched 2 patterns');
    expect(screen.getByTestId('tool-group')).toHaveAttribute('data-state', 'success');
    expect(screen.queryByTestId('tool-call')).not.toBeInTheDocument();
  });

  it('expands into the individual calls and folds back', async () => {
    renderEvents(events);
    const head = within(screen.getByTestId('tool-group')).getAllByRole('button')[0] as HTMLElement;
    await userEvent.click(head);
    expect(screen.getAllByTestId('tool-call').map((call) => call.dataset.toolName)).toEqual(['Read', 'Read', 'Grep', 'Read', 'Grep']);
    await userEvent.click(head);
    expect(screen.queryByTestId('tool-call')).not.toBeInTheDocument();
  });

  it('shows a running group with the call in progress', () => {
    renderEvents([
      ...readCall('a', 'a.rs'),
      { type: 'tool_call_started', tool_use_id: 'b', name: 'Read' },
      { type: 'tool_call_input', tool_use_id: 'b', name: 'Read', input: {}, hints: hints('read', 'Read big.rs', true) },
      { type: 'tool_call_status_changed', tool_use_id: 'b', status: 'executing' },
    ]);
    const group = screen.getByTestId('tool-group');
    expect(group).toHaveAttribute('data-state', 'running');
    expect(group).toHaveTextContent('Read big.rs');
  });
});

describe('virtualisation', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('keeps only the rows on screen in the DOM', () => {
    vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(40);
    const events: SessionEvent[] = [];
    for (let i = 0; i < 2000; i += 1) {
      events.push({ type: 'turn_started', prompt: `prompt ${i}` }, { type: 'turn_ended', stop_reason: 'end_turn' });
    }
    const { container } = renderEvents(events);
    const rendered = container.querySelectorAll('.transcript-row').length;
    expect(rendered).toBeGreaterThan(0);
    expect(rendered).toBeLessThan(80);
  });
});

describe('sub-agents', () => {
  it('shows a sub-agent’s own calls and text inside the Agent call that started it', async () => {
    const ipc = installFakeIpc();
    render(<App />);
    await userEvent.click(await screen.findByTestId('open-folder-button'));
    await screen.findByTestId('prompt-input');
    const nested = (event: SessionEvent): SessionEvent => ({ type: 'sub_agent', parent_tool_use_id: 'agent-1', agent_id: 'a1', event });
    ipc.push(
      { type: 'turn_started', prompt: 'explore' },
      { type: 'tool_call_started', tool_use_id: 'agent-1', name: 'Agent' },
      nested({ type: 'tool_call_started', tool_use_id: 'r1', name: 'Read' }),
      nested({ type: 'tool_call_input', tool_use_id: 'r1', name: 'Read', input: { file_path: 'a.rs' }, hints: { kind: 'read', title: 'Read a.rs', collapsible: true } }),
      nested({ type: 'text_delta', text: 'The entry point is in a.rs.' }),
    );
    const agent = screen.getAllByTestId('tool-call').find((call) => call.dataset.toolName === 'Agent') as HTMLElement;
    const sub = within(agent).getByTestId('sub-agent');
    expect(sub).toHaveTextContent('The entry point is in a.rs.');
    expect(within(sub).getAllByText(/Read/).length).toBeGreaterThan(0);
    // The sub-agent's calls stay out of the main transcript.
    expect(screen.getAllByTestId('tool-call').filter((call) => call.dataset.toolName === 'Read' && !sub.contains(call))).toHaveLength(0);
    await userEvent.click(within(sub).getByRole('button', { name: /Sub-agent/ }));
    expect(within(sub).queryByText('The entry point is in a.rs.')).not.toBeInTheDocument();
  });
});

describe('calls a call made', () => {
  it('shows a REPL program\'s calls inside the REPL call, collapsible, and not in the main transcript', async () => {
    renderEvents([
      { type: 'turn_started', prompt: 'chain it' },
      { type: 'tool_call_started', tool_use_id: 'r1', name: 'REPL' },
      { type: 'tool_call_input', tool_use_id: 'r1', name: 'REPL', input: { code: 'await Read({file_path: "a.rs"})' }, hints: hints('shell', 'REPL await Read') },
      ...readCall('r1/1', 'a.rs'),
      ...bash('r1/2'),
    ]);
    const repl = screen.getAllByTestId('tool-call').find((call) => call.dataset.toolName === 'REPL') as HTMLElement;
    const inner = within(repl).getByTestId('inner-calls');
    expect(within(inner).getAllByTestId('tool-call').map((call) => call.dataset.toolName)).toEqual(['Read', 'Bash']);
    expect(screen.getAllByTestId('tool-call').filter((call) => !inner.contains(call)).map((call) => call.dataset.toolName)).toEqual(['REPL']);
    await userEvent.click(within(inner).getByRole('button', { name: /Calls it made/ }));
    expect(within(inner).queryAllByTestId('tool-call')).toHaveLength(0);
  });
});

describe('stopping sub-agents', () => {
  const nested = (event: SessionEvent): SessionEvent => ({ type: 'sub_agent', parent_tool_use_id: 'agent-1', agent_id: 'a1', event });
  const background = (status: 'running' | 'completed' | 'failed' | 'stopped', task = 'agent-bg-1'): SessionEvent => ({
    type: 'background_agent_changed',
    agent: { task_id: task, parent_tool_use_id: task.replace('agent-', ''), agent_type: 'Explore', description: `Survey ${task}`, status },
  });

  async function openSession() {
    const ipc = installFakeIpc({ stop_sub_agent: () => true });
    render(<App />);
    await userEvent.click(await screen.findByTestId('open-folder-button'));
    await screen.findByTestId('prompt-input');
    return ipc;
  }

  it('a running sub-agent has a Stop button that stops just it; a finished one has none', async () => {
    const ipc = await openSession();
    ipc.push(
      { type: 'turn_started', prompt: 'explore' },
      { type: 'tool_call_started', tool_use_id: 'agent-1', name: 'Agent' },
      nested({ type: 'turn_started', prompt: 'look around' }),
    );
    await userEvent.click(screen.getByTestId('sub-agent-stop'));
    expect(ipc.argsOf('stop_sub_agent')).toEqual([{ sessionId: 'session-1', id: 'agent-1' }]);
    expect(ipc.argsOf('interrupt')).toHaveLength(0);
    ipc.push(nested({ type: 'turn_ended', stop_reason: 'interrupted' }));
    expect(screen.queryByTestId('sub-agent-stop')).not.toBeInTheDocument();
  });

  it('lists background agents with their state and stops a running one by its task id', async () => {
    const ipc = await openSession();
    ipc.push(
      { type: 'turn_started', prompt: 'start two' },
      background('running', 'agent-bg-1'),
      background('running', 'agent-bg-2'),
      background('failed', 'agent-bg-2'),
    );
    const rows = () => within(screen.getByTestId('background-agents')).getAllByTestId('background-agent');
    expect(rows().map((row) => row.dataset.status)).toEqual(['running', 'failed']);
    expect(rows()[0]).toHaveTextContent('ExploreSurvey agent-bg-1running');
    expect(within(rows()[1] as HTMLElement).queryByTestId('background-agent-stop')).not.toBeInTheDocument();
    await userEvent.click(within(rows()[0] as HTMLElement).getByTestId('background-agent-stop'));
    expect(ipc.argsOf('stop_sub_agent')).toEqual([{ sessionId: 'session-1', id: 'agent-bg-1' }]);
    ipc.push(background('stopped', 'agent-bg-1'), background('completed', 'agent-bg-3'));
    expect(rows().map((row) => row.dataset.status)).toEqual(['stopped', 'failed', 'completed']);
    expect(screen.getByTestId('background-agents')).toHaveTextContent('0 running');
    expect(rows()[2]).toHaveTextContent('done');
  });
});

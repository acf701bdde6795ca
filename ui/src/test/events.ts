// Builders of protocol events for tests: envelopes with increasing `seq`, and typical tool calls.
import type {
  ApprovalRequest,
  DecisionTrace,
  FileDiff,
  EventEnvelope,
  RenderHints,
  SessionEvent,
  ToolDetail,
  ToolKind,
} from '../generated/protocol';

export const SESSION = 's-test';

/** Wraps events in envelopes of one session, numbered from `firstSeq`. */
export function envelopes(events: readonly SessionEvent[], firstSeq = 0): EventEnvelope[] {
  return events.map((event, index) => ({ session_id: SESSION, seq: firstSeq + index, event }));
}

export function hints(kind: ToolKind, title: string, collapsible = false): RenderHints {
  return { kind, title, collapsible };
}

/** The events of a complete, successful read-only tool call. */
export function readCall(id: string, path: string, kind: ToolKind = 'read'): SessionEvent[] {
  const name = kind === 'read' ? 'Read' : kind === 'search' ? 'Grep' : 'Glob';
  return [
    { type: 'tool_call_started', tool_use_id: id, name },
    {
      type: 'tool_call_input',
      tool_use_id: id,
      name,
      input: { file_path: path },
      hints: hints(kind, `${name} ${path}`, true),
    },
    { type: 'tool_call_status_changed', tool_use_id: id, status: 'executing' },
    { type: 'tool_call_result', tool_use_id: id, outcome: 'success', content: `contents of ${path}`, detail: null },
  ];
}

/** A trace with one step of each kind: the mode, a hook, a rule and a check. */
export const SAMPLE_TRACE: DecisionTrace = {
  steps: [
    { type: 'mode', mode: 'default' },
    {
      type: 'hook',
      event: 'PreToolUse',
      command: './audit.sh',
      source: '/p/.claude/settings.json',
      outcome: 'exit 0',
      decision: 'ask',
      reason: 'Deploys need a look',
    },
    { type: 'rule', rule: 'Bash(npm *)', behavior: 'allow', scope: 'localSettings', file: '/p/.claude/settings.local.json', role: 'shadowed' },
    { type: 'check', check: 'outside_working_directories', detail: '/tmp/x is outside the working directories' },
  ],
  decided_by: { type: 'hook', command: './audit.sh' },
};

export function approvalRequest(id: string, toolUseId: string, withSuggestion = true): ApprovalRequest {
  return {
    id,
    session_id: SESSION,
    tool_use_id: toolUseId,
    tool_name: 'Bash',
    kind: 'shell',
    input: { command: 'npm run test', description: 'Run the tests' },
    title: 'Run npm run test',
    reason: 'No rule allows Bash(npm run test) in default mode',
    decided_by: { type: 'mode', mode: 'default' },
    trace: SAMPLE_TRACE,
    suggestion: withSuggestion
      ? { rules: ['Bash(npm run test *)'], destination: '.claude/settings.local.json' }
      : null,
    diff: null,
  };
}

/** An Edit approval request carrying the file's diff. */
export function editRequest(id: string, toolUseId: string, diff: FileDiff, withSuggestion = true): ApprovalRequest {
  return {
    id,
    session_id: SESSION,
    tool_use_id: toolUseId,
    tool_name: 'Edit',
    kind: 'edit',
    input: { file_path: diff.path, old_string: 'x', new_string: 'y' },
    title: `Edit ${diff.path}`,
    reason: 'Default mode asks before editing files',
    decided_by: { type: 'mode', mode: 'default' },
    trace: SAMPLE_TRACE,
    suggestion: withSuggestion ? { rules: ['Edit(src/**)'], destination: '.claude/settings.local.json' } : null,
    diff,
  };
}

/** `count` numbered lines of code, each ending with a newline. */
export function codeLines(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `export const value${i + 1} = compute(${i + 1}, 'item');`);
}

/** The typed detail of a completed file change carrying `diff`, with `overrides`. */
export function fileChange(
  diff: FileDiff | null,
  overrides: Partial<Extract<ToolDetail, { type: 'file_change' }>> = {},
): ToolDetail {
  const base = { path: diff?.path ?? '/p/file', created: diff?.is_new_file ?? false, replacements: null, hunks: [], cell: null };
  return { type: 'file_change', ...base, diff, ...overrides };
}

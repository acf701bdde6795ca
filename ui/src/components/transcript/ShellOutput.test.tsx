// Tests of shell output in the transcript under jsdom: calls whose hints say shell work get the
// terminal view, whatever the tool's name; it falls back to plain text (colours stripped, redraws
// resolved) where xterm.js cannot run.
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SessionEvent, ToolKind } from '../../generated/protocol';
import { applyEvents } from '../../state/reduce';
import { emptyTranscript } from '../../state/transcript';
import { envelopes, hints } from '../../test/events';
import { Transcript } from './Transcript';

const call = (id: string, name: string, progress: string[], kind: ToolKind = 'shell'): SessionEvent[] => [
  { type: 'tool_call_started', tool_use_id: id, name },
  { type: 'tool_call_input', tool_use_id: id, name, input: { command: 'cargo test' }, hints: hints(kind, `${name} cargo test`) },
  { type: 'tool_call_status_changed', tool_use_id: id, status: 'executing' },
  ...progress.map((text): SessionEvent => ({ type: 'tool_call_progress', tool_use_id: id, text })),
];

function renderEvents(events: SessionEvent[]) {
  const state = applyEvents(emptyTranscript(), envelopes(events));
  return render(<Transcript items={state.items} />);
}

describe('ShellOutput', () => {
  it('shows a Bash call’s output as plain text in jsdom', () => {
    renderEvents(call('b1', 'Bash', ['\r[=> ] 1/2', '\r\u001b[K\u001b[32mCompiling\u001b[0m x\n', 'test ok\n']));
    const output = screen.getByTestId('shell-output');
    expect(output).toHaveClass('is-running');
    expect(output.textContent).toBe('Compiling x\ntest ok\n');
    expect(screen.queryByTestId('terminal-output')).toBeNull();
  });

  it('follows the kind of work, not the name: shell work of any tool gets it, other work shows its last line', () => {
    renderEvents([
      ...call('s1', 'RunInSandbox', ['built\n']),
      ...call('o1', 'Bash', ['first\n', 'second\n'], 'other'),
    ]);
    expect(screen.getAllByTestId('shell-output')).toHaveLength(1);
    expect(screen.getByTestId('shell-output').textContent).toBe('built\n');
    expect(screen.getByText('second')).toBeInTheDocument();
  });
});

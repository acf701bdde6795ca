// Tests of file-change diffs in the transcript: a completed Edit/Write with a diff in its result
// detail shows a collapsed "+N −M" line that expands into a unified highlighted diff, and file
// changes never fold into the read/search summary even when their hints say they could.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { FileDiff, SessionEvent, ToolDetail, ToolKind } from '../../generated/protocol';
import { applyEvents } from '../../state/reduce';
import { emptyTranscript } from '../../state/transcript';
import { envelopes, fileChange, hints, readCall } from '../../test/events';
import { Transcript } from './Transcript';

const diff: FileDiff = {
  path: '/p/src/lib.rs',
  old_text: 'fn main() {\n    run(1);\n}\n',
  new_text: 'fn main() {\n    run(2);\n    done();\n}\n',
  is_new_file: false,
};

function fileCall(id: string, name: string, kind: ToolKind, detail: ToolDetail | null, collapsible = false): SessionEvent[] {
  return [
    { type: 'tool_call_started', tool_use_id: id, name },
    { type: 'tool_call_input', tool_use_id: id, name, input: { file_path: 'src/lib.rs' }, hints: hints(kind, `${name} src/lib.rs`, collapsible) },
    { type: 'tool_call_result', tool_use_id: id, outcome: 'success', content: 'ok', detail },
  ];
}

function renderEvents(events: SessionEvent[]) {
  const state = applyEvents(emptyTranscript(), envelopes(events));
  return render(<Transcript items={state.items} />);
}

describe('ToolDiff', () => {
  it('is collapsed to the file and +N −M, and expands into a unified diff', async () => {
    renderEvents(fileCall('e1', 'Edit', 'edit', fileChange(diff)));
    const block = screen.getByTestId('tool-diff');
    expect(block).toHaveAttribute('data-open', 'false');
    expect(within(block).getByTestId('diff-stats')).toHaveTextContent('+2 −1');
    expect(within(block).queryByTestId('diff-body')).toBeNull();
    await userEvent.click(within(block).getByTestId('tool-diff-toggle'));
    const body = within(block).getByTestId('diff-body');
    expect(body).toHaveAttribute('data-view', 'unified');
    expect(within(body).getAllByTestId('diff-line').map((line) => line.dataset.kind)).toEqual([
      'context',
      'del',
      'add',
      'add',
      'context',
    ]);
    // highlight.js loads with the first diff drawn.
    await waitFor(() => expect(within(block).getByTestId('diff-body').querySelector('.hljs-keyword')).toHaveTextContent('fn'));
  });

  it('is absent without a diff in the result detail, whose hunks still give its size', () => {
    const big = fileChange(null, {
      path: '/p/big.rs',
      hunks: [{ old_start: 1, old_lines: 1, new_start: 1, new_lines: 2, lines: ['-a', '+b', '+c'] }],
    });
    renderEvents(fileCall('e1', 'Edit', 'edit', big));
    expect(screen.queryByTestId('tool-diff')).toBeNull();
    expect(screen.getByTestId('tool-facts')).toHaveTextContent('+2 −1 (too large to show)');
  });

  it('is absent for a detail that is not a file change', () => {
    renderEvents(fileCall('e1', 'Edit', 'edit', { type: 'other', data: { diff } }));
    expect(screen.queryByTestId('tool-diff')).toBeNull();
  });

  it('file changes never fold into the read summary', () => {
    renderEvents([
      ...readCall('r1', 'a.rs'),
      ...fileCall('w1', 'Write', 'write', fileChange(diff), true),
      // Known by its result's file change alone, whatever its hints and name.
      ...fileCall('n1', 'Notebook', 'other', fileChange(null, { path: '/p/n.ipynb', cell: { cell_id: 'c1', summary: 'Replaced cell c1' } }), true),
      ...readCall('r2', 'b.rs'),
    ]);
    expect(screen.queryByTestId('tool-group')).toBeNull();
    expect(screen.getAllByTestId('tool-call')).toHaveLength(4);
    expect(screen.getByTestId('tool-facts')).toHaveTextContent('Replaced cell c1');
  });
});

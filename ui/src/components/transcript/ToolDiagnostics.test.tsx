// An edit's row shows what the language servers said the change broke, and shows nothing of the kind when they
// said nothing.
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ToolCall } from '../../state/transcript';
import { ToolCallView } from './ToolCallView';

const edit = (diagnostics?: string): ToolCall => ({
  id: 'e1',
  name: 'Edit',
  input: { file_path: '/p/main.py' },
  hints: { kind: 'edit', title: 'Edit main.py', collapsible: false },
  status: 'completed',
  decision: null,
  asked: false,
  progress: '',
  result: {
    outcome: 'success',
    content: 'Edited',
    detail: {
      type: 'file_change',
      path: '/p/main.py',
      created: false,
      replacements: 1,
      hunks: [],
      diff: null,
      cell: null,
      diagnostics,
    },
  },
});

describe('diagnostics on an edit', () => {
  it('shows the errors the change introduced on its row', () => {
    const note = 'The language server `pyright` reports 1 new error in main.py after this change:\n  line 5, column 20: bad';
    render(<ToolCallView call={edit(note)} />);
    expect(screen.getByTestId('tool-diagnostics').textContent).toBe(note);
  });

  it('shows nothing when the servers said nothing', () => {
    render(<ToolCallView call={edit()} />);
    expect(screen.queryByTestId('tool-diagnostics')).toBeNull();
  });
});

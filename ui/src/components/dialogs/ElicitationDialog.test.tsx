// An MCP server's form in the window, against a mocked IPC: every kind of field the specification
// allows, the checks that keep a wrong value from being sent, and accept / decline / cancel (Esc).
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ElicitationField, ElicitationRequest } from '../../generated/protocol';
import { fieldProblem } from '../../state/elicitation';
import { installFakeIpc, type FakeIpc } from '../../test/fakeIpc';
import { App } from '../app/App';

async function openSession(): Promise<FakeIpc> {
  const ipc = installFakeIpc();
  render(<App />);
  await userEvent.click(await screen.findByTestId('open-folder-button'));
  await screen.findByTestId('prompt-input');
  return ipc;
}

const field = (name: string, kind: ElicitationField['kind'], required = false): ElicitationField => ({
  name,
  title: null,
  description: null,
  required,
  kind,
});

const form: ElicitationRequest = {
  id: 'e1',
  session_id: 'session-1',
  server: 'reports',
  message: 'Who should the report go to?',
  fields: [
    { ...field('name', { type: 'string', format: null, min_length: 2, max_length: 20, default: null }, true), title: 'Name' },
    field('email', { type: 'string', format: 'email', min_length: null, max_length: null, default: null }, true),
    field('copies', { type: 'number', integer: true, minimum: 1, maximum: 5, default: 1 }),
    field('urgent', { type: 'boolean', default: false }),
    field('format', {
      type: 'enum',
      options: [
        { value: 'pdf', label: 'PDF' },
        { value: 'html', label: 'Web page' },
      ],
      default: null,
    }),
    field('channels', {
      type: 'multi_select',
      options: [
        { value: 'mail', label: 'Mail' },
        { value: 'chat', label: 'Chat' },
      ],
      min_items: null,
      max_items: 1,
      default: [],
    }),
  ],
};

const input = (name: string) =>
  within(screen.getAllByTestId('elicitation-field').find((each) => each.dataset.field === name) as HTMLElement);

describe('an MCP server’s form', () => {
  it('shows every field, keeps wrong values from being sent, and sends the values as their types', async () => {
    const ipc = await openSession();
    ipc.push({ type: 'elicitation_requested', request: form });
    const dialog = await screen.findByTestId('elicitation-dialog');
    expect(dialog).toHaveTextContent('The server reports asks for information');
    expect(screen.getByTestId('elicitation-message')).toHaveTextContent('Who should the report go to?');
    expect(input('name').getByText('Name')).toBeInTheDocument();
    expect(input('copies').getByTestId('elicitation-input')).toHaveValue('1');

    await userEvent.type(input('name').getByTestId('elicitation-input'), 'A');
    await userEvent.type(input('email').getByTestId('elicitation-input'), 'not an email');
    await userEvent.clear(input('copies').getByTestId('elicitation-input'));
    await userEvent.type(input('copies').getByTestId('elicitation-input'), '2.5');
    await userEvent.click(screen.getByTestId('elicitation-accept'));
    expect(input('name').getByTestId('elicitation-problem')).toHaveTextContent('At least 2 characters');
    expect(input('email').getByTestId('elicitation-problem')).toHaveTextContent('Must be an email address');
    expect(input('copies').getByTestId('elicitation-problem')).toHaveTextContent('Must be a whole number');
    expect(ipc.argsOf('answer_elicitation')).toHaveLength(0);

    await userEvent.type(input('name').getByTestId('elicitation-input'), 'da');
    await userEvent.clear(input('email').getByTestId('elicitation-input'));
    await userEvent.type(input('email').getByTestId('elicitation-input'), 'ada@example.org');
    await userEvent.clear(input('copies').getByTestId('elicitation-input'));
    await userEvent.type(input('copies').getByTestId('elicitation-input'), '3');
    await userEvent.click(input('urgent').getByTestId('elicitation-input'));
    await userEvent.selectOptions(input('format').getByTestId('elicitation-input'), 'Web page');
    const [mail, chat] = input('channels').getAllByTestId('elicitation-option');
    await userEvent.click(mail as HTMLElement);
    await userEvent.click(chat as HTMLElement);
    await userEvent.click(screen.getByTestId('elicitation-accept'));
    expect(input('channels').getByTestId('elicitation-problem')).toHaveTextContent('Pick at most 1');
    await userEvent.click(chat as HTMLElement);
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(ipc.argsOf('answer_elicitation')).toHaveLength(1));
    expect(ipc.argsOf('answer_elicitation')[0]).toEqual({
      answer: {
        request_id: 'e1',
        action: 'accept',
        content: { name: 'Ada', email: 'ada@example.org', copies: 3, urgent: true, format: 'html', channels: ['mail'] },
      },
    });
    await waitFor(() => expect(screen.queryByTestId('elicitation-dialog')).not.toBeInTheDocument());
  });

  it('declines, and Esc cancels', async () => {
    const ipc = await openSession();
    ipc.push({ type: 'elicitation_requested', request: form });
    await userEvent.click(await screen.findByTestId('elicitation-decline'));
    await waitFor(() => expect(ipc.argsOf('answer_elicitation')).toHaveLength(1));
    expect(ipc.argsOf('answer_elicitation')[0]).toEqual({ answer: { request_id: 'e1', action: 'decline', content: null } });
    ipc.push({ type: 'approval_resolved', request_id: 'e1' }, { type: 'elicitation_requested', request: { ...form, id: 'e2' } });
    await waitFor(() => expect(screen.getByTestId('elicitation-dialog')).toHaveAttribute('data-request-id', 'e2'));
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(ipc.argsOf('answer_elicitation')).toHaveLength(2));
    expect(ipc.argsOf('answer_elicitation')[1]).toEqual({ answer: { request_id: 'e2', action: 'cancel', content: null } });
  });

  it('checks the formats and bounds the specification names', () => {
    const text = (format: 'email' | 'uri' | 'date' | 'date-time') =>
      field('f', { type: 'string', format, min_length: null, max_length: null, default: null });
    const cases: [ElicitationField, string, string | null][] = [
      [text('uri'), 'https://example.org/a', null],
      [text('uri'), 'example dot org', 'Must be a URI (such as https://example.org)'],
      [text('date'), '2024-02-29', null],
      [text('date'), '2023-02-29', 'Must be a date (YYYY-MM-DD)'],
      [text('date-time'), '2024-02-29T10:00:00+01:00', null],
      [text('date-time'), '2024-02-29 10:00', 'Must be a date and time (such as 2025-01-31T09:30:00Z)'],
      [field('n', { type: 'number', integer: false, minimum: 0, maximum: 1, default: null }), '0.5', null],
      [field('n', { type: 'number', integer: false, minimum: 0, maximum: 1, default: null }), '-1', 'At least 0'],
      [field('n', { type: 'number', integer: false, minimum: null, maximum: null, default: null }), 'ten', 'Must be a number'],
      [field('n', { type: 'number', integer: false, minimum: null, maximum: null, default: null }, true), '', 'Required'],
    ];
    for (const [each, value, problem] of cases) expect(fieldProblem(each, value)).toBe(problem);
  });
});

// The agent's plan review, its questions and its checklist in the window, against a mocked IPC.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { QuestionRequest } from '../../generated/protocol';
import { installFakeIpc, type FakeIpc } from '../../test/fakeIpc';
import { App } from '../app/App';

async function openSession(): Promise<FakeIpc> {
  const ipc = installFakeIpc();
  render(<App />);
  await userEvent.click(await screen.findByTestId('open-folder-button'));
  await screen.findByTestId('prompt-input');
  return ipc;
}

const questions: QuestionRequest = {
  id: 'q1',
  session_id: 'session-1',
  tool_use_id: 't2',
  questions: [
    {
      question: 'Which database should the cache use?',
      header: 'Database',
      multi_select: false,
      options: [
        { label: 'SQLite', description: 'A file beside the app' },
        { label: 'Redis', description: 'A server to run' },
      ],
    },
    {
      question: 'Which platforms matter?',
      header: 'Platforms',
      multi_select: true,
      options: [
        { label: 'Linux', description: '' },
        { label: 'macOS', description: '' },
        { label: 'Windows', description: '' },
      ],
    },
  ],
};

describe('plan review', () => {
  it('shows the plan as markdown and approves it with Enter', async () => {
    const ipc = await openSession();
    ipc.push(
      { type: 'turn_started', prompt: 'plan it' },
      { type: 'plan_review_requested', request: { id: 'p1', session_id: 'session-1', tool_use_id: 't1', plan: '# Plan\n\n1. Add the cache\n2. Test it' } },
    );
    const dialog = await screen.findByTestId('plan-dialog');
    expect(await within(dialog).findByRole('heading', { name: 'Plan' })).toBeInTheDocument();
    expect(within(dialog).getByTestId('plan-body')).toHaveTextContent('Add the cache');
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(ipc.argsOf('answer_plan')).toHaveLength(1));
    expect(ipc.argsOf('answer_plan')[0]).toEqual({ answer: { request_id: 'p1', choice: { choice: 'approve', mode: 'default' } } });
    await waitFor(() => expect(screen.queryByTestId('plan-dialog')).not.toBeInTheDocument());
  });

  it('keeps planning with feedback', async () => {
    const ipc = await openSession();
    ipc.push({ type: 'plan_review_requested', request: { id: 'p2', session_id: 'session-1', tool_use_id: 't1', plan: 'Rewrite everything' } });
    await userEvent.type(await screen.findByTestId('plan-feedback'), 'Smaller steps, please{Enter}');
    await waitFor(() => expect(ipc.argsOf('answer_plan')).toHaveLength(1));
    expect(ipc.argsOf('answer_plan')[0]).toEqual({
      answer: { request_id: 'p2', choice: { choice: 'keep_planning', feedback: 'Smaller steps, please' } },
    });
  });
});

describe('questions', () => {
  it('answers with digits, a multi-select and Enter', async () => {
    const ipc = await openSession();
    ipc.push({ type: 'questions_asked', request: questions });
    await screen.findByTestId('question-dialog');
    expect(screen.getByTestId('question-submit')).toBeDisabled();
    // Digits answer the first question still unanswered.
    await userEvent.keyboard('1');
    await userEvent.keyboard('1');
    await userEvent.click(screen.getAllByTestId('question-option')[4] as HTMLElement);
    expect(screen.getByTestId('question-submit')).toBeEnabled();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(ipc.argsOf('answer_questions')).toHaveLength(1));
    expect(ipc.argsOf('answer_questions')[0]).toEqual({
      answer: {
        request_id: 'q1',
        outcome: {
          outcome: 'answered',
          replies: [
            { selected: ['SQLite'], other: null },
            { selected: ['Linux', 'Windows'], other: null },
          ],
        },
      },
    });
  });

  it('takes an answer of one’s own, and Esc declines', async () => {
    const ipc = await openSession();
    ipc.push({ type: 'questions_asked', request: { ...questions, questions: questions.questions.slice(0, 1) } });
    await screen.findByTestId('question-dialog');
    await userEvent.type(screen.getByTestId('question-other'), 'Postgres');
    await userEvent.click(screen.getByTestId('question-submit'));
    await waitFor(() => expect(ipc.argsOf('answer_questions')).toHaveLength(1));
    expect(ipc.argsOf('answer_questions')[0]).toMatchObject({
      answer: { outcome: { outcome: 'answered', replies: [{ selected: [], other: 'Postgres' }] } },
    });
    ipc.push({ type: 'approval_resolved', request_id: 'q1' }, { type: 'questions_asked', request: { ...questions, id: 'q2' } });
    await waitFor(() => expect(screen.getByTestId('question-dialog')).toHaveAttribute('data-request-id', 'q2'));
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(ipc.argsOf('answer_questions')).toHaveLength(2));
    expect(ipc.argsOf('answer_questions')[1]).toEqual({ answer: { request_id: 'q2', outcome: { outcome: 'declined', message: null } } });
  });
});

describe('checklist', () => {
  it('pins the agent’s to-do list above the prompt and follows its changes', async () => {
    const ipc = await openSession();
    expect(screen.queryByTestId('checklist')).not.toBeInTheDocument();
    ipc.push({
      type: 'todos_changed',
      todos: [
        { content: 'Add the cache', active_form: 'Adding the cache', status: 'completed' },
        { content: 'Run the tests', active_form: 'Running the tests', status: 'in_progress' },
        { content: 'Update the docs', active_form: 'Updating the docs', status: 'pending' },
      ],
    });
    const items = within(screen.getByTestId('checklist')).getAllByTestId('checklist-item');
    expect(items.map((item) => item.textContent)).toEqual(['Add the cache', 'Running the tests', 'Update the docs']);
    expect(screen.getByTestId('checklist')).toHaveTextContent('1/3 done');
  });
});

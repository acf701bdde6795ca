// The hooks panel: hooks grouped by event with matcher and source, and the tester running one on an edited input and
// showing its exit, output and decision.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { HookListing, HookTestResult } from '../../generated/protocol';
import { FOLDER, installFakeIpc } from '../../test/fakeIpc';
import { App } from '../app/App';

const audit: HookListing = {
  event: 'PreToolUse',
  matcher: 'Bash',
  command: './audit.sh',
  timeout_secs: 30,
  source: `${FOLDER}/.claude/settings.json`,
  active: true,
  sample_input: { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'npm test' } },
};
const notify: HookListing = {
  event: 'Stop',
  matcher: null,
  command: 'notify-send done',
  timeout_secs: 600,
  source: '/home/me/.claude/settings.json',
  active: false,
  sample_input: { hook_event_name: 'Stop', stop_hook_active: false },
};
const ran: HookTestResult = {
  exit_code: 2,
  stdout: '',
  stderr: 'no rm here\n',
  timed_out: false,
  outcome: 'exit 2',
  decision: 'deny',
  reason: 'no rm here',
  block: null,
  errors: [],
};

describe('HooksPanel', () => {
  it('lists hooks by event and runs one on an edited input', async () => {
    const ipc = installFakeIpc({ hooks_view: () => [audit, notify], test_hook: () => ran });
    render(<App />);
    await userEvent.click(await screen.findByTestId('open-folder-button'));
    await userEvent.click(await screen.findByTestId('hooks-button'));
    const panel = await screen.findByTestId('hooks-panel');
    await waitFor(() => expect(within(panel).getAllByTestId('hooks-event')).toHaveLength(2));
    const [pre, stop] = within(panel).getAllByTestId<HTMLElement>('hook-item');
    expect(pre).toHaveTextContent('./audit.sh on Bash · 30 s · from .claude/settings.json');
    expect(stop).toHaveAttribute('data-active', 'false');
    expect(stop).toHaveTextContent('not in force');

    await userEvent.click(within(pre!).getByTestId('hook-try'));
    const input = within(panel).getByTestId<HTMLTextAreaElement>('hook-input');
    expect(JSON.parse(input.value)).toEqual(audit.sample_input);
    await userEvent.clear(input);
    await userEvent.type(input, '{{"tool_name": "Bash", "tool_input": {{"command": "rm -rf /"}}');
    await userEvent.click(within(panel).getByTestId('hook-run'));
    expect(ipc.argsOf('test_hook')).toEqual([
      { sessionId: 'session-1', event: 'PreToolUse', command: './audit.sh', input: { tool_name: 'Bash', tool_input: { command: 'rm -rf /' } } },
    ]);
    const result = await within(panel).findByTestId('hook-result');
    expect(result).toHaveAttribute('data-decision', 'deny');
    expect(within(result).getByTestId('hook-outcome')).toHaveTextContent('exit 2 · would deny — no rm here');
    expect(within(result).getByTestId('hook-stderr')).toHaveTextContent('no rm here');
    expect(within(result).getByTestId('hook-stdout')).toHaveTextContent('(empty)');
  });

  it('opens with /hooks and says how to add hooks when there are none', async () => {
    installFakeIpc({ hooks_view: () => [] });
    render(<App />);
    await userEvent.click(await screen.findByTestId('open-folder-button'));
    await userEvent.type(await screen.findByTestId('prompt-input'), '/hooks{Enter}');
    expect(await screen.findByTestId('hooks-none')).toHaveTextContent('.claude/settings.json');
  });
});

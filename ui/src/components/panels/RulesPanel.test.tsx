// The rules panel: every rule with its scope and file, shadowed and contradicting rules flagged, adding (with the
// engine's error shown), removing and moving rules, the decisions of this session's calls, testing a call with its
// trace, and revoking the folder's trust; opened from the status bar or with /rules.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { CallCheck, RulesView } from '../../generated/protocol';
import { hints } from '../../test/events';
import { FOLDER, installFakeIpc } from '../../test/fakeIpc';
import { App } from '../app/App';

const PROJECT = `${FOLDER}/.claude/settings.json`;

function view(): RulesView {
  return {
    rules: [
      {
        rule: 'Bash(rm -rf build)',
        behavior: 'allow',
        scope: 'projectSettings',
        file: PROJECT,
        applies: true,
        problem: null,
        shadowed_by: ['deny: Bash(rm *)'],
        contradicts: [],
        set_aside: null,
      },
      {
        rule: 'Bash(rm *)',
        behavior: 'deny',
        scope: 'projectSettings',
        file: PROJECT,
        applies: true,
        problem: null,
        shadowed_by: [],
        contradicts: [`allow: ${PROJECT}`],
        set_aside: null,
      },
      {
        rule: 'Read',
        behavior: 'allow',
        scope: 'cliArg',
        file: null,
        applies: true,
        problem: null,
        shadowed_by: [],
        contradicts: [],
        set_aside: null,
      },
    ],
    files: { local: `${FOLDER}/.claude/settings.local.json`, project: PROJECT, user: '/home/me/.claude/settings.json' },
    trust: { trusted: true, allow_rules: [], directories: [], hooks: [], mcp_servers: [] },
  };
}

const answer: CallCheck = {
  decision: 'deny',
  reason: '`rm -rf build` is denied by the deny rule `Bash(rm *)`',
  trace: {
    steps: [
      { type: 'mode', mode: 'default' },
      { type: 'rule', rule: 'Bash(rm *)', behavior: 'deny', scope: 'projectSettings', file: PROJECT, role: 'decided' },
      { type: 'rule', rule: 'Bash(rm -rf build)', behavior: 'allow', scope: 'projectSettings', file: PROJECT, role: 'shadowed' },
    ],
    decided_by: { type: 'rule', rule: 'Bash(rm *)', behavior: 'deny', scope: 'projectSettings', file: PROJECT },
  },
  suggestions: [],
};

async function openPanel(handlers: Parameters<typeof installFakeIpc>[0] = {}) {
  const ipc = installFakeIpc({ rules_view: () => view(), check_call: () => answer, ...handlers });
  render(<App />);
  await userEvent.click(await screen.findByTestId('open-folder-button'));
  await screen.findByTestId('prompt-input');
  return ipc;
}

describe('RulesPanel', () => {
  it('lists every rule with its scope and file and flags the shadowed and contradicting ones', async () => {
    await openPanel();
    await userEvent.click(screen.getByTestId('rules-button'));
    const panel = await screen.findByTestId('rules-panel');
    await waitFor(() => expect(within(panel).getAllByTestId('rule-row')).toHaveLength(3));
    const [shadowed, deny, cli] = within(panel).getAllByTestId<HTMLElement>('rule-row');
    expect(shadowed).toHaveTextContent('.claude/settings.json');
    expect(within(shadowed!).getByTestId('rule-shadowed')).toHaveTextContent('Never applies: covered by deny: Bash(rm *)');
    expect(within(deny!).getByTestId('rule-contradicts')).toHaveTextContent('allow: .claude/settings.json');
    // A command-line rule cannot be edited here.
    expect(within(cli!).queryByTestId('rule-remove')).not.toBeInTheDocument();
    expect(cli).toHaveTextContent('cliArg');
  });

  it('shows which allow rules auto mode sets aside, and why', async () => {
    const rules = view();
    rules.rules.push({
      rule: 'Bash(python3 *)',
      behavior: 'allow',
      scope: 'projectSettings',
      file: PROJECT,
      applies: false,
      problem: null,
      shadowed_by: [],
      contradicts: [],
      set_aside: '`python` with any arguments runs any code; in auto mode the classifier judges these commands',
    });
    await openPanel({ rules_view: () => rules });
    await userEvent.click(screen.getByTestId('rules-button'));
    const panel = await screen.findByTestId('rules-panel');
    await waitFor(() => expect(within(panel).getAllByTestId('rule-row')).toHaveLength(4));
    const rows = within(panel).getAllByTestId<HTMLElement>('rule-row');
    const python = rows[3]!;
    expect(python).toHaveClass('rules-row-inactive');
    expect(within(python).getByTestId('rule-set-aside')).toHaveTextContent(
      'Set aside in auto mode: `python` with any arguments runs any code',
    );
    expect(within(python).getByTestId('rule-set-aside')).toHaveTextContent('applies again when the session leaves auto mode');
    for (const row of rows.slice(0, 3)) expect(within(row).queryByTestId('rule-set-aside')).not.toBeInTheDocument();
  });

  it('adds, removes and moves rules through the engine and shows its error', async () => {
    let fail = false;
    const ipc = await openPanel({
      add_rule: () => {
        if (fail) throw { code: 'rules', message: '`Bash(npm` is not a valid allow rule: unbalanced parenthesis' };
        return null;
      },
    });
    await userEvent.click(screen.getByTestId('rules-button'));
    const panel = await screen.findByTestId('rules-panel');
    await userEvent.type(within(panel).getByTestId('rule-text'), 'Bash(git push:*)');
    await userEvent.selectOptions(within(panel).getByTestId('rule-behavior'), 'ask');
    await userEvent.selectOptions(within(panel).getByTestId('rule-scope'), 'userSettings');
    await userEvent.click(within(panel).getByTestId('rule-add-button'));
    expect(ipc.argsOf('add_rule')).toEqual([{ sessionId: 'session-1', scope: 'userSettings', behavior: 'ask', rule: 'Bash(git push:*)' }]);
    await waitFor(() => expect(within(panel).getByTestId('rule-text')).toHaveValue(''));
    await waitFor(() => expect(ipc.argsOf('rules_view').length).toBeGreaterThan(1));

    fail = true;
    await userEvent.type(within(panel).getByTestId('rule-text'), 'Bash(npm');
    await userEvent.click(within(panel).getByTestId('rule-add-button'));
    expect(await within(panel).findByText(/not a valid allow rule: unbalanced parenthesis/)).toBeInTheDocument();
    expect(within(panel).getByTestId('rule-text')).toHaveValue('Bash(npm');

    const first = within(panel).getAllByTestId('rule-row')[0] as HTMLElement;
    await userEvent.click(within(first).getByTestId('rule-remove'));
    expect(ipc.argsOf('remove_rule')).toEqual([
      { sessionId: 'session-1', scope: 'projectSettings', behavior: 'allow', rule: 'Bash(rm -rf build)' },
    ]);
    await userEvent.selectOptions(within(first).getByTestId('rule-move'), 'localSettings');
    expect(ipc.argsOf('move_rule')).toEqual([
      { sessionId: 'session-1', from: 'projectSettings', to: 'localSettings', behavior: 'allow', rule: 'Bash(rm -rf build)' },
    ]);
  });

  it('tests a call and shows the decision with its trace', async () => {
    const ipc = await openPanel();
    await userEvent.click(screen.getByTestId('rules-button'));
    const panel = await screen.findByTestId('rules-panel');
    const input = within(panel).getByTestId('rule-test-input');
    await userEvent.clear(input);
    await userEvent.type(input, '{{"command": "rm -rf build"}');
    await userEvent.click(within(panel).getByTestId('rule-test-button'));
    expect(ipc.argsOf('check_call')).toEqual([{ sessionId: 'session-1', tool: 'Bash', input: { command: 'rm -rf build' } }]);
    const shown = await within(panel).findByTestId('rule-test-answer');
    expect(shown).toHaveAttribute('data-decision', 'deny');
    const steps = within(shown).getAllByTestId('trace-step').map((step) => step.textContent);
    expect(steps).toEqual([
      'Mode Default',
      'Rule Bash(rm *) (deny) in .claude/settings.json — decided',
      'Rule Bash(rm -rf build) (allow) in .claude/settings.json — also matches, overridden',
    ]);

    await userEvent.clear(input);
    await userEvent.type(input, 'not json');
    await userEvent.click(within(panel).getByTestId('rule-test-button'));
    expect(await within(panel).findByText(/The input is not JSON/)).toBeInTheDocument();
    expect(ipc.argsOf('check_call')).toHaveLength(1);
  });

  it('opens with /rules, lists what decided each call of the session, and revokes trust', async () => {
    const ipc = await openPanel({
      revoke_trust: () => ({ trusted: false, allow_rules: [], directories: [], hooks: [], mcp_servers: [] }),
    });
    ipc.push(
      { type: 'turn_started', prompt: 'go' },
      { type: 'tool_call_started', tool_use_id: 't1', name: 'Bash' },
      { type: 'tool_call_input', tool_use_id: 't1', name: 'Bash', input: { command: 'rm -rf build' }, hints: hints('shell', 'Run rm -rf build') },
      {
        type: 'tool_call_decision',
        tool_use_id: 't1',
        decision: {
          decision: 'deny',
          reason: 'denied',
          rule: 'Bash(rm *)',
          source: PROJECT,
          decided_by: { type: 'rule', rule: 'Bash(rm *)', behavior: 'deny', scope: 'projectSettings', file: PROJECT },
        },
      },
      { type: 'tool_call_result', tool_use_id: 't1', outcome: 'denied', content: 'no', detail: null },
      { type: 'turn_ended', stop_reason: 'end_turn' },
    );
    await userEvent.type(screen.getByTestId('prompt-input'), '/rules{Enter}');
    const panel = await screen.findByTestId('rules-panel');
    expect(ipc.argsOf('send_prompt')).toEqual([]);
    const calls = within(panel).getAllByTestId('rules-call');
    expect(calls).toHaveLength(1);
    expect(calls[0]).toHaveTextContent('Run rm -rf build — Rule Bash(rm *) in .claude/settings.json');
    await userEvent.click(await within(panel).findByTestId('rules-revoke'));
    expect(ipc.argsOf('revoke_trust')).toEqual([{ sessionId: 'session-1' }]);
    await waitFor(() => expect(screen.getByTestId('trust-badge')).toHaveTextContent('Untrusted folder'));
  });
});

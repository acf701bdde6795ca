// Tests of the words for what decided a permission answer, for every kind of source.
import { describe, expect, it } from 'vitest';
import type { DecisionSource, PermissionDecision } from '../generated/protocol';
import { decisionSourceText, describeDecisionSource } from './decisionSource';

describe('describeDecisionSource', () => {
  it.each<[DecisionSource, string]>([
    [{ type: 'rule', rule: 'Bash(rm *)', behavior: 'deny', scope: 'projectSettings', file: '/p/.claude/settings.json' }, 'Rule Bash(rm *) in .claude/settings.json'],
    [{ type: 'rule', rule: 'Read', behavior: 'deny', scope: 'userSettings', file: '/home/me/.claude/settings.json' }, 'Rule Read in /home/me/.claude/settings.json'],
    [{ type: 'rule', rule: 'Edit', behavior: 'allow', scope: 'cliArg', file: null }, 'Rule Edit in the command line'],
    [{ type: 'rule', rule: 'Bash(ls *)', behavior: 'allow', scope: 'session', file: null }, 'Rule Bash(ls *) in this session'],
    [{ type: 'hook', command: './check.sh' }, 'Hook ./check.sh'],
    [{ type: 'mode', mode: 'acceptEdits' }, 'Accept edits mode'],
    [{ type: 'safety_check', check: 'protected_path' }, 'Safety check: protected path'],
    [{ type: 'safety_check', check: 'critical_removal' }, 'Safety check: removal of a critical path'],
    [{ type: 'classifier', reason: 'sends data out' }, 'Auto-mode classifier: sends data out'],
    [{ type: 'tool', tool: 'AskUserQuestion' }, 'The AskUserQuestion tool'],
    [{ type: 'working_directories' }, 'Inside the working directories'],
    [{ type: 'no_prompt' }, 'No one can be asked here'],
  ])('%j reads "%s"', (source, text) => {
    expect(describeDecisionSource(source, '/p')).toBe(text);
  });
});

describe('decisionSourceText', () => {
  it('falls back to the old source text for decisions stored before the typed source', () => {
    const stored = { decision: 'deny', reason: 'r', rule: 'Bash(rm *)', source: '/p/.claude/settings.json' } as PermissionDecision;
    expect(decisionSourceText(stored)).toBe('/p/.claude/settings.json');
    expect(decisionSourceText({ ...stored, source: null, decided_by: null })).toBeNull();
  });
});

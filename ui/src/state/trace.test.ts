// Tests of a decision trace in words: an ask that dontAsk mode turned into a deny names the ask rule that asked,
// then the conversion.
import { describe, expect, it } from 'vitest';
import type { TraceStep } from '../generated/protocol';
import { describeStep } from './trace';

describe('describeStep', () => {
  it('names the ask rule and then the conversion of its ask into a deny', () => {
    const root = '/home/me/demo';
    const steps: TraceStep[] = [
      { type: 'mode', mode: 'dontAsk' },
      { type: 'rule', rule: 'Bash(git push *)', behavior: 'ask', scope: 'projectSettings', file: `${root}/.claude/settings.json`, role: 'decided' },
      { type: 'ask_converted', by: { type: 'mode', mode: 'dontAsk' }, detail: 'dontAsk mode denies what would ask' },
    ];
    expect(steps.map((step) => describeStep(step, root)).map(({ kind, text }) => `${kind} ${text}`)).toEqual([
      "Mode Don't ask",
      'Rule Bash(git push *) (ask) in .claude/settings.json — decided',
      'Converted ask to deny: dontAsk mode denies what would ask',
    ]);
  });
});

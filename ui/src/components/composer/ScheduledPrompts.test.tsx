// The scheduled prompts above the prompt: each with its schedule in words, its prompt and when it fires next;
// hidden when there are none; the engine's latest list replaces the one before.
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ScheduledPrompt } from '../../generated/protocol';
import { applyEvents } from '../../state/reduce';
import { emptyTranscript } from '../../state/transcript';
import { nextFireText } from '../../state/scheduled';
import { ScheduledPrompts } from './ScheduledPrompts';

const job = (id: string, prompt: string, recurring: boolean, next: number | null): ScheduledPrompt => ({
  id,
  cron: '0 9 * * 1-5',
  schedule: 'At 09:00, Monday through Friday',
  prompt,
  recurring,
  next_fire_ms: next,
});

describe('ScheduledPrompts', () => {
  it('lists each prompt with its schedule and next fire', () => {
    const at = new Date(2026, 11, 7, 9, 0).getTime();
    render(<ScheduledPrompts prompts={[job('a1', 'run the nightly report', true, at), job('b2', 'check the deploy', false, null)]} />);
    const rows = screen.getAllByTestId('scheduled-prompt');
    expect(rows).toHaveLength(2);
    expect(rows[0]?.textContent).toContain('At 09:00, Monday through Friday');
    expect(rows[0]?.textContent).toContain('run the nightly report');
    expect(rows[1]?.textContent).toContain('once, never again');
  });

  it('is hidden without prompts', () => {
    render(<ScheduledPrompts prompts={[]} />);
    expect(screen.queryByTestId('scheduled-prompts')).toBeNull();
  });

  it('says the time alone for today and the day for later', () => {
    const now = new Date(2026, 11, 5, 8, 0).getTime();
    expect(nextFireText(new Date(2026, 11, 5, 9, 30).getTime(), now)).not.toMatch(/Dec/);
    expect(nextFireText(new Date(2026, 11, 7, 9, 30).getTime(), now)).toMatch(/7/);
  });

  it('takes the latest list the engine sent', () => {
    const state = applyEvents(emptyTranscript(), [
      { session_id: 's', seq: 0, event: { type: 'scheduled_prompts', prompts: [job('a1', 'one', true, 1)] } },
      { session_id: 's', seq: 1, event: { type: 'scheduled_prompts', prompts: [] } },
    ]);
    expect(state.scheduledPrompts).toEqual([]);
  });
});

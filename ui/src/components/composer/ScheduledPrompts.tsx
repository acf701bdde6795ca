// The project's scheduled prompts (the agent's CronCreate jobs), pinned above the prompt beside the checklist: each
// one's schedule in words, when it fires next, whether it repeats, and the prompt it sends. Collapsible; hidden when
// there are none.
import { useState } from 'react';
import type { ScheduledPrompt } from '../../generated/protocol';
import { nextFireText } from '../../state/scheduled';

export function ScheduledPrompts({ prompts }: { prompts: readonly ScheduledPrompt[] }) {
  const [open, setOpen] = useState(true);
  if (prompts.length === 0) return null;
  return (
    <section className="checklist scheduled-prompts" data-testid="scheduled-prompts" aria-label="Scheduled prompts">
      <button type="button" className="checklist-head" aria-expanded={open} onClick={() => setOpen((previous) => !previous)}>
        Scheduled prompts <span className="dim">{prompts.length}</span>
      </button>
      {open && (
        <ul className="checklist-items">
          {prompts.map((prompt) => (
            <li key={prompt.id} className="checklist-item scheduled-prompt" data-testid="scheduled-prompt" data-id={prompt.id}>
              <span className="background-agent-type" title={prompt.cron}>
                {prompt.schedule}
              </span>
              <span className="checklist-text" title={prompt.prompt}>
                {prompt.prompt}
              </span>
              <span className="dim checklist-note">
                {prompt.recurring ? '' : 'once, '}
                {nextFireText(prompt.next_fire_ms)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

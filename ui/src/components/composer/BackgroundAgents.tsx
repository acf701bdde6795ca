// The background agents of the session, pinned above the prompt beside the checklist: each one's type, task and
// state (running, done, failed, stopped), with a Stop button on those still running. Collapsible; hidden when none
// was started.
import { useContext, useState } from 'react';
import type { BackgroundAgent, BackgroundAgentStatus } from '../../generated/protocol';
import { StopSubAgentContext } from '../../state/subAgentStop';

const LABELS: Record<BackgroundAgentStatus, string> = {
  running: 'running',
  completed: 'done',
  failed: 'failed',
  stopped: 'stopped',
};

export function BackgroundAgents({ agents }: { agents: readonly BackgroundAgent[] }) {
  const [open, setOpen] = useState(true);
  const stop = useContext(StopSubAgentContext);
  if (agents.length === 0) return null;
  const running = agents.filter((agent) => agent.status === 'running').length;
  return (
    <section className="checklist background-agents" data-testid="background-agents" aria-label="Background agents">
      <button type="button" className="checklist-head" aria-expanded={open} onClick={() => setOpen((previous) => !previous)}>
        Background agents <span className="dim">{running} running</span>
      </button>
      {open && (
        <ul className="checklist-items">
          {agents.map((agent) => (
            <li
              key={agent.task_id}
              className={`checklist-item background-agent agent-${agent.status}`}
              data-testid="background-agent"
              data-task-id={agent.task_id}
              data-status={agent.status}
            >
              <span className="background-agent-type">{agent.agent_type}</span>
              <span className="checklist-text">{agent.description}</span>
              <span className="dim checklist-note" data-testid="background-agent-status">
                {LABELS[agent.status]}
              </span>
              {stop && agent.status === 'running' && (
                <button
                  type="button"
                  className="button button-ghost background-agent-stop"
                  data-testid="background-agent-stop"
                  aria-label={`Stop ${agent.description}`}
                  onClick={() => stop(agent.task_id)}
                >
                  Stop
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

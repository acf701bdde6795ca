// The background shells of the session, pinned above the prompt beside the background agents: each one's
// description (or command), why it runs there, its state, its output on demand (read again every second while it
// runs) and a Stop button while it runs. Collapsible; hidden when none was started.
import { useContext, useEffect, useState } from 'react';
import type { BackgroundReason, BackgroundShell } from '../../generated/protocol';
import { ShellControlsContext, type ShellControls } from '../../state/shells';
import { ShellOutput } from '../transcript/ShellOutput';

/** How often the output of a running shell that is shown is read again, in milliseconds. */
export const OUTPUT_REFRESH_MS = 1000;

const MOVED: Record<BackgroundReason, string | null> = {
  requested: null,
  by_person: 'moved here by you',
  timeout: 'moved here at its timeout',
  budget: 'moved here after the assistant mode’s budget',
};

export function BackgroundShells({ shells }: { shells: readonly BackgroundShell[] }) {
  const [open, setOpen] = useState(true);
  if (shells.length === 0) return null;
  const running = shells.filter((shell) => shell.status === 'running').length;
  return (
    <section className="checklist background-shells" data-testid="background-shells" aria-label="Background shells">
      <button type="button" className="checklist-head" aria-expanded={open} onClick={() => setOpen((previous) => !previous)}>
        Background shells <span className="dim">{running} running</span>
      </button>
      {open && (
        <ul className="checklist-items">
          {shells.map((shell) => (
            <ShellRow key={shell.task_id} shell={shell} />
          ))}
        </ul>
      )}
    </section>
  );
}

function ShellRow({ shell }: { shell: BackgroundShell }) {
  const controls = useContext(ShellControlsContext);
  const [showing, setShowing] = useState(false);
  const running = shell.status === 'running';
  const output = useOutput(controls, shell.task_id, showing, running);
  return (
    <li
      className={`checklist-item background-shell shell-${shell.status}`}
      data-testid="background-shell"
      data-task-id={shell.task_id}
      data-status={shell.status}
    >
      <div className="background-shell-line">
        <span className="background-shell-id dim">{shell.task_id}</span>
        <span className="checklist-text background-shell-title" title={shell.command}>
          {shell.description ?? shell.command}
        </span>
        <span className="dim checklist-note" data-testid="background-shell-status">
          {statusText(shell)}
        </span>
        {controls && (
          <button
            type="button"
            className="button button-ghost background-shell-button"
            data-testid="background-shell-output"
            aria-expanded={showing}
            onClick={() => setShowing((previous) => !previous)}
          >
            Output
          </button>
        )}
        {controls && running && (
          <button
            type="button"
            className="button button-ghost background-shell-button"
            data-testid="background-shell-stop"
            aria-label={`Stop ${shell.description ?? shell.command}`}
            onClick={() => controls.stop(shell.task_id)}
          >
            Stop
          </button>
        )}
      </div>
      {showing &&
        (output ? (
          <ShellOutput text={output} running={running} />
        ) : (
          <div className="dim background-shell-empty" data-testid="background-shell-empty">
            {output === null ? 'Its output is no longer there.' : 'No output yet.'}
          </div>
        ))}
    </li>
  );
}

/** The shell's output while it is shown: read at once, again every second while it runs, once more when it ends. */
function useOutput(controls: ShellControls | null, taskId: string, showing: boolean, running: boolean): string | null {
  const [output, setOutput] = useState<string | null>('');
  useEffect(() => {
    if (!controls || !showing) return;
    let current = true;
    const read = () => {
      controls.output(taskId).then(
        (text) => current && setOutput(text),
        () => undefined,
      );
    };
    read();
    const timer = running ? window.setInterval(read, OUTPUT_REFRESH_MS) : undefined;
    return () => {
      current = false;
      if (timer !== undefined) window.clearInterval(timer);
    };
  }, [controls, taskId, showing, running]);
  return output;
}

function statusText(shell: BackgroundShell): string {
  const state =
    shell.status === 'running'
      ? 'running'
      : shell.status === 'killed'
        ? 'stopped'
        : shell.exit_code === null
          ? 'ended'
          : `exited ${shell.exit_code}`;
  const notes = [shell.status === 'running' ? MOVED[shell.reason] : null, shell.agent_id ? 'sub-agent' : null].filter(Boolean);
  return notes.length > 0 ? `${state} · ${notes.join(' · ')}` : state;
}

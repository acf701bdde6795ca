// File ▸ New Session with… (and the tab strip's "with…" button): lists the agents configured under `agentServers`
// in Tandem's settings file; choosing one opens a session in the folder shown whose turns that agent runs. With none
// configured it says how to configure one (the file, and an example entry). While the agent starts, the list waits;
// an agent that could not start says why and the dialog stays open. Esc closes it.
import { useRef, useState } from 'react';
import type { AgentServers } from '../../generated/app';
import { useLoad } from '../../hooks/useLoad';
import { ErrorBanner } from '../common/ErrorBanner';
import { Modal, ModalTitle } from './Modal';

export type HostedSessionDialogProps = {
  /** The folder the agent will work in. */
  folder: string;
  load: () => Promise<AgentServers>;
  /** Opens the session with the agent `name`; resolves to why it could not, or null once it opened. */
  onChoose: (name: string) => Promise<string | null>;
  onClose: () => void;
};

/** What a settings entry of an agent looks like. */
const EXAMPLE = `"agentServers": {
  "claude": { "command": "npx", "args": ["@zed-industries/claude-agent-acp"] }
}`;

export function HostedSessionDialog({ folder, load, onChoose, onClose }: HostedSessionDialogProps) {
  const closeRef = useRef<HTMLButtonElement>(null);
  const { data, error, loading } = useLoad(load);
  const [starting, setStarting] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const choose = async (name: string) => {
    setStarting(name);
    setFailure(null);
    const failed = await onChoose(name);
    setStarting(null);
    if (failed !== null) setFailure(failed);
  };
  const names = data?.names ?? [];
  return (
    <Modal className="hosted-dialog" onEscape={starting ? undefined : onClose} initialFocus={closeRef} data-testid="hosted-dialog">
      <header className="modal-header">
        <ModalTitle className="modal-title">New Session with…</ModalTitle>
        <span className="status-spacer" />
        <button ref={closeRef} type="button" className="button" data-testid="hosted-close" disabled={starting !== null} onClick={onClose}>
          Close <kbd>Esc</kbd>
        </button>
      </header>
      <p className="trust-explainer">
        An external agent runs the turns in <code>{folder}</code>; Tandem&apos;s rules and hooks answer its questions first, and
        the rest open Tandem&apos;s dialogs.
      </p>
      {loading && <p className="dim">Reading the settings…</p>}
      {error && <ErrorBanner message={error} />}
      {data?.problem && <ErrorBanner message={data.problem} />}
      {data && names.length === 0 && !data.problem && (
        <div className="hosted-none" data-testid="hosted-none">
          <p>
            No agents are configured. Add one under <code>agentServers</code> in{' '}
            <code>{data.settings_file ?? "Tandem's settings file"}</code>, for example:
          </p>
          <pre className="hosted-example">{EXAMPLE}</pre>
        </div>
      )}
      {names.length > 0 && (
        <ul className="hosted-agents" data-testid="hosted-agents">
          {names.map((name) => (
            <li key={name}>
              <button
                type="button"
                className="button hosted-agent"
                data-testid="hosted-agent"
                disabled={starting !== null}
                onClick={() => void choose(name)}
              >
                {starting === name ? `Starting ${name}…` : name}
              </button>
            </li>
          ))}
        </ul>
      )}
      {failure && <ErrorBanner message={failure} />}
    </Modal>
  );
}

// The MCP panel: each server of the session with its state (connecting, ready, failed with its
// error and the end of its stderr, waiting for approval or sign-in, disabled), transport, where it is
// configured, its tools (each with a checkbox turning it off or on for the model), prompts and resources; a project
// server is approved or refused here, a remote one signed in to, any other reconnected.
// The list starts from `mcp_servers` and follows the engine's `mcp_server_changed` events. Esc closes.
import { useRef, useState } from 'react';
import type { McpSignIn } from '../../generated/app';
import type { McpServerState, McpServerStatus } from '../../generated/protocol';
import { errorMessage } from '../../ipc';
import { useLoad } from '../../hooks/useLoad';
import { ErrorBanner } from '../common/ErrorBanner';
import { Modal, ModalTitle } from '../dialogs/Modal';

export type McpPanelProps = {
  /** The servers as the events reported them (newer than `load`'s answer when both know a server). */
  live: Readonly<Record<string, McpServerStatus>>;
  load: () => Promise<McpServerStatus[]>;
  approve: (name: string, approved: boolean) => Promise<void>;
  reconnect: (name: string) => Promise<void>;
  /** Starts signing in to a remote server (its page opens in the browser). */
  signIn: (name: string) => Promise<McpSignIn>;
  /** Turns a tool (full name) off or on for the model. */
  toggleTool: (tool: string, enabled: boolean) => Promise<void>;
  onClose: () => void;
};

const STATE_LABELS: Record<McpServerState['state'], string> = {
  connecting: 'Connecting…',
  ready: 'Ready',
  failed: 'Failed',
  needs_approval: 'Needs approval',
  disabled: 'Disabled',
  needs_sign_in: 'Needs sign-in',
};

export function McpPanel({ live, load, approve, reconnect, signIn, toggleTool, onClose }: McpPanelProps) {
  const closeRef = useRef<HTMLButtonElement>(null);
  const listed = useLoad(load);
  const loaded = listed.data;
  const [actError, setError] = useState<string | null>(null);
  const error = actError ?? listed.error;

  const byName = new Map<string, McpServerStatus>();
  for (const server of loaded ?? []) byName.set(server.name, server);
  for (const server of Object.values(live)) byName.set(server.name, server);
  const servers = [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
  const act = (action: () => Promise<void>) => {
    setError(null);
    action().catch((cause: unknown) => setError(errorMessage(cause)));
  };
  // Why the browser could not be opened for a sign-in, by server (the page's URL is shown to open by hand).
  const [unopened, setUnopened] = useState<Record<string, string>>({});
  const startSignIn = (name: string) =>
    act(async () => {
      const started = await signIn(name);
      setUnopened((all) => {
        const next = { ...all };
        if (started.open_error) next[name] = started.open_error;
        else delete next[name];
        return next;
      });
    });

  return (
    <Modal className="mcp-panel" onEscape={onClose} initialFocus={closeRef} data-testid="mcp-panel">
      <header className="modal-header">
        <ModalTitle className="modal-title">
          MCP servers
        </ModalTitle>
        <span className="status-spacer" />
        <button ref={closeRef} type="button" className="button" data-testid="mcp-close" onClick={onClose}>
          Close <kbd>Esc</kbd>
        </button>
      </header>
      {error && <ErrorBanner message={error} />}
      {loaded !== null && servers.length === 0 && (
        <p className="dim" data-testid="mcp-none">
          No MCP server is configured. Add them in <code>.mcp.json</code> at the project root or under <code>mcpServers</code> in
          your settings.
        </p>
      )}
      <ul className="mcp-servers">
        {servers.map((server) => (
          <li key={server.name} className={`mcp-server state-${server.state.state}`} data-testid="mcp-server" data-name={server.name} data-state={server.state.state}>
            <div className="mcp-server-head">
              <span className="mcp-server-name">{server.name}</span>
              <span className={`mcp-state mcp-state-${server.state.state}`}>{STATE_LABELS[server.state.state]}</span>
              <span className="dim mcp-transport">{server.transport}</span>
              <span className="status-spacer" />
              {server.state.state === 'needs_approval' ? (
                <>
                  <button type="button" className="button button-primary" data-testid="mcp-approve" onClick={() => act(() => approve(server.name, true))}>
                    Approve
                  </button>
                  <button type="button" className="button" data-testid="mcp-deny" onClick={() => act(() => approve(server.name, false))}>
                    Deny
                  </button>
                </>
              ) : server.state.state === 'needs_sign_in' ? (
                <button type="button" className="button button-primary" data-testid="mcp-sign-in" onClick={() => startSignIn(server.name)}>
                  {server.state.authorization_url ? 'Sign in again' : 'Sign in'}
                </button>
              ) : (
                server.state.state !== 'disabled' && (
                  <button type="button" className="button" data-testid="mcp-reconnect" onClick={() => act(() => reconnect(server.name))}>
                    Reconnect
                  </button>
                )
              )}
            </div>
            <code className="mcp-target" title={server.source}>
              {server.target}
            </code>
            <span className="dim mcp-source">from {server.source}</span>
            {server.state.state === 'failed' && (
              <div className="mcp-failure" data-testid="mcp-error">
                <p>{server.state.error}</p>
                {server.state.stderr_tail && <pre className="mcp-stderr">{server.state.stderr_tail}</pre>}
              </div>
            )}
            {server.state.state === 'needs_sign_in' && (
              <div className="mcp-sign-in" data-testid="mcp-sign-in-state">
                {server.state.error && <p className="mcp-failure">{server.state.error}</p>}
                {server.state.authorization_url ? (
                  <p>
                    {unopened[server.name]
                      ? `The browser could not be opened (${unopened[server.name]}). Open this page to sign in: `
                      : 'Finish signing in in your browser. The page: '}
                    <code className="mcp-target" data-testid="mcp-sign-in-url">
                      {server.state.authorization_url}
                    </code>
                  </p>
                ) : (
                  !server.state.error && <p className="dim">This server needs you to sign in before its tools can be used.</p>
                )}
              </div>
            )}
            {server.tools.length > 0 && (
              <details className="mcp-tools">
                <summary>
                  {server.tools.length} {server.tools.length === 1 ? 'tool' : 'tools'}
                  {server.disabled_tools.length > 0 && ` (${server.disabled_tools.length} off)`}
                </summary>
                <ul>
                  {server.tools.map((tool) => {
                    const enabled = !server.disabled_tools.includes(tool);
                    return (
                      <li key={tool}>
                        <label>
                          <input
                            type="checkbox"
                            checked={enabled}
                            data-testid="mcp-tool-toggle"
                            data-tool={tool}
                            onChange={() => act(() => toggleTool(tool, !enabled))}
                          />{' '}
                          <code>{tool}</code>
                        </label>
                      </li>
                    );
                  })}
                </ul>
              </details>
            )}
            {server.prompts.length > 0 && (
              <details className="mcp-tools" data-testid="mcp-prompts">
                <summary>
                  {server.prompts.length} {server.prompts.length === 1 ? 'prompt' : 'prompts'}
                </summary>
                <ul>
                  {server.prompts.map((prompt) => (
                    <li key={prompt}>
                      <code>{prompt}</code>
                    </li>
                  ))}
                </ul>
              </details>
            )}
            {server.resources.length > 0 && (
              <details className="mcp-tools" data-testid="mcp-resources">
                <summary>
                  {server.resources.length} {server.resources.length === 1 ? 'resource' : 'resources'}
                </summary>
                <ul>
                  {server.resources.map((resource) => (
                    <li key={resource.uri}>
                      {resource.name && <span>{resource.name} </span>}
                      <code className="dim">{resource.uri}</code>
                    </li>
                  ))}
                </ul>
              </details>
            )}
          </li>
        ))}
      </ul>
    </Modal>
  );
}

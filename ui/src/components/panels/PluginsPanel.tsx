// The plugins panel: every Claude Code plugin installed for this folder with its name, version, marketplace, what it
// brings (skills, commands, agents, hooks, MCP and language servers) and what is wrong with it, and a switch each that
// writes `enabledPlugins` to the settings file that holds the choice (the list shows the file that decides). A change
// applies to the sessions started after it. Esc closes.
import { useRef, useState } from 'react';
import type { PluginListing } from '../../generated/protocol';
import { errorMessage } from '../../ipc';
import { shown } from '../../state/decisionSource';
import { partsText } from '../../state/plugins';
import { useLoad } from '../../hooks/useLoad';
import { ErrorBanner } from '../common/ErrorBanner';
import { Modal, ModalTitle } from '../dialogs/Modal';

export type PluginsPanelProps = {
  load: () => Promise<PluginListing[]>;
  /** Turns a plugin on or off; resolves to the plugins as they are then. */
  setEnabled: (id: string, enabled: boolean) => Promise<PluginListing[]>;
  /** The project folder: settings files inside it are named relative to it. */
  root?: string;
  onClose: () => void;
};

export function PluginsPanel({ load, setEnabled, root, onClose }: PluginsPanelProps) {
  const closeRef = useRef<HTMLButtonElement>(null);
  const listed = useLoad(load);
  const [switched, setSwitched] = useState<PluginListing[] | null>(null);
  const [actError, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const plugins = switched ?? listed.data;
  const error = actError ?? listed.error;

  const toggle = (plugin: PluginListing) => {
    setError(null);
    setBusy(plugin.id);
    setEnabled(plugin.id, !plugin.enabled)
      .then(setSwitched, (cause: unknown) => setError(errorMessage(cause)))
      .finally(() => setBusy(null));
  };

  return (
    <Modal className="plugins-panel" onEscape={onClose} initialFocus={closeRef} data-testid="plugins-panel">
      <header className="modal-header">
        <ModalTitle className="modal-title">
          Plugins
        </ModalTitle>
        <span className="status-spacer" />
        <button ref={closeRef} type="button" className="button" data-testid="plugins-close" onClick={onClose}>
          Close <kbd>Esc</kbd>
        </button>
      </header>
      {error && <ErrorBanner message={error} />}
      {plugins !== null && plugins.length === 0 && (
        <p className="dim" data-testid="plugins-none">
          No plugin is installed. Plugins installed with the command-line agent (<code>~/.claude/plugins</code>) are listed here.
        </p>
      )}
      {plugins !== null && plugins.length > 0 && (
        <p className="dim plugins-note">A plugin turned on or off here applies to the sessions started after the change.</p>
      )}
      <ul className="plugins-list">
        {(plugins ?? []).map((plugin) => (
          <li
            key={plugin.id}
            className={`plugin-item${plugin.enabled ? '' : ' plugin-off'}`}
            data-testid="plugin-item"
            data-id={plugin.id}
            data-enabled={plugin.enabled}
          >
            <div className="plugin-head">
              <label className="plugin-switch">
                <input
                  type="checkbox"
                  role="switch"
                  data-testid="plugin-switch"
                  aria-label={`${plugin.enabled ? 'Turn off' : 'Turn on'} ${plugin.name}`}
                  checked={plugin.enabled}
                  disabled={!plugin.switchable || busy !== null}
                  onChange={() => toggle(plugin)}
                />
                <span className="plugin-name">{plugin.name}</span>
              </label>
              {plugin.version && <span className="dim">{plugin.version}</span>}
              <span className="dim plugin-marketplace">from {plugin.marketplace || 'no marketplace'}</span>
            </div>
            {plugin.description && <p className="plugin-description">{plugin.description}</p>}
            <span className="dim plugin-parts" data-testid="plugin-parts">
              Brings {partsText(plugin.counts)}
            </span>
            <span className="dim plugin-decided" data-testid="plugin-decided">
              {plugin.decided_by ? `${plugin.enabled ? 'On' : 'Off'} in ${shown(plugin.decided_by, root)}` : 'Off: no settings file turns it on'}
              {plugin.switchable ? '' : ' (not changeable here)'}
            </span>
            {plugin.waits_for_trust && (
              <p className="plugin-trust" data-testid="plugin-trust">
                Only this folder's settings turn it on: its hooks and servers wait until you trust the folder.
              </p>
            )}
            {plugin.problems.length > 0 && (
              <ul className="plugin-problems" data-testid="plugin-problems">
                {plugin.problems.map((problem) => (
                  <li key={problem}>{problem}</li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
    </Modal>
  );
}

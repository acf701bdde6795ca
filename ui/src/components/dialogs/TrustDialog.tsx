// The workspace-trust dialog. For an untrusted folder it asks whether to trust it, listing what trusting
// enables (the project's allow rules, extra directories, hooks with their commands, MCP servers); until
// then the project's settings may restrict but never grant. For a trusted folder it lists the same and
// offers to revoke trust. Enter takes the highlighted choice, Esc closes without changing anything.
import { useRef, useState } from 'react';
import type { FolderTrust } from '../../generated/protocol';
import { errorMessage } from '../../ipc';
import { ErrorBanner } from '../common/ErrorBanner';
import { Icon } from '../common/Icon';
import { Modal, ModalTitle } from './Modal';

export type TrustDialogProps = {
  folderName: string;
  trust: FolderTrust;
  /** Trusts (or, for a trusted folder, revokes trust in) the folder; rejects with the backend's error. */
  onChange: (trusted: boolean) => Promise<void>;
  onClose: () => void;
};

export function TrustDialog({ folderName, trust, onChange, onClose }: TrustDialogProps) {
  const primaryRef = useRef<HTMLButtonElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const change = async (trusted: boolean) => {
    setBusy(true);
    setError(null);
    try {
      await onChange(trusted);
      onClose();
    } catch (cause) {
      setError(errorMessage(cause));
    } finally {
      setBusy(false);
    }
  };

  const grants = [
    { key: 'allow', label: 'Allow rules', items: trust.allow_rules },
    { key: 'directories', label: 'Extra directories', items: trust.directories },
    { key: 'hooks', label: 'Hooks (commands run on your machine)', items: trust.hooks },
    { key: 'mcp', label: 'MCP servers', items: trust.mcp_servers },
  ].filter((group) => group.items.length > 0);

  return (
    <Modal
      className="trust-dialog"
      onEscape={busy ? undefined : onClose}
      initialFocus={primaryRef}
      data-testid="trust-dialog"
      data-trusted={trust.trusted}
    >
      <header className="modal-header">
        <ModalTitle className="modal-title">
          {trust.trusted ? `${folderName} is trusted` : `Do you trust the files in ${folderName}?`}
        </ModalTitle>
      </header>
      <p className="trust-explainer">
        {trust.trusted
          ? "The folder's own settings apply: its rules can let the agent act without asking, and its hooks run."
          : "Until you trust it, this folder's settings can only make the agent ask more, never less: its deny and ask rules apply, its allow rules, extra directories, hooks and MCP servers wait. Trust it only if you trust whoever wrote them."}
      </p>
      {grants.length === 0 ? (
        <p className="dim" data-testid="trust-nothing">
          The folder&apos;s settings grant nothing beyond your own today.
        </p>
      ) : (
        <div className="trust-grants" data-testid="trust-grants">
          {grants.map((group) => (
            <section key={group.key} className="trust-group" data-testid={`trust-${group.key}`}>
              <h3 className="trust-group-title">
                {group.label} <span className="dim">{group.items.length}</span>
              </h3>
              <ul className="trust-list">
                {group.items.map((item) => (
                  <li key={item}>
                    <code>{item}</code>
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      )}
      {error && <ErrorBanner message={error} />}
      <div className="approval-actions">
        {trust.trusted ? (
          <>
            <button
              ref={primaryRef}
              type="button"
              className="button"
              data-testid="trust-close"
              disabled={busy}
              onClick={onClose}
            >
              Close
            </button>
            <button
              type="button"
              className="button button-danger"
              data-testid="trust-revoke"
              disabled={busy}
              onClick={() => void change(false)}
            >
              Revoke trust
            </button>
          </>
        ) : (
          <>
            <button
              ref={primaryRef}
              type="button"
              className="button button-primary"
              data-testid="trust-accept"
              disabled={busy}
              onClick={() => void change(true)}
            >
              Trust this folder <kbd aria-label="Enter"><Icon name="enter" /></kbd>
            </button>
            <button type="button" className="button" data-testid="trust-later" disabled={busy} onClick={onClose}>
              Not now <kbd>Esc</kbd>
            </button>
          </>
        )}
      </div>
    </Modal>
  );
}

// File ▸ Open Remote Folder…: takes `ssh://[user@]host[:port]/abs/path` and opens a session whose turns Tandem on
// that machine runs (its `tandem acp`, over the system's OpenSSH). A URL that cannot be one is refused before
// anything starts; a connection that fails (no ssh, an unreachable host, no Tandem there or an older one) shows the
// message — with the one command that installs Tandem there when that is what is missing — and the dialog stays
// open. Enter opens, Esc closes.
import { useRef, useState, type FormEvent } from 'react';
import { remoteUrlProblem } from '../../state/remoteUrl';
import { ErrorBanner } from '../common/ErrorBanner';
import { Modal, ModalTitle } from './Modal';

export type RemoteFolderDialogProps = {
  /** The folder of this machine the session is stored under (null: the folder the app started in). */
  folder: string | null;
  /** Opens the remote folder `url`; resolves to why it could not, or null once it opened. */
  onOpen: (url: string) => Promise<string | null>;
  onClose: () => void;
};

export function RemoteFolderDialog({ folder, onOpen, onClose }: RemoteFolderDialogProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [url, setUrl] = useState('');
  const [opening, setOpening] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problem = remoteUrlProblem(url);
    if (problem) {
      setFailure(problem);
      return;
    }
    setOpening(true);
    setFailure(null);
    const failed = await onOpen(url.trim());
    setOpening(false);
    if (failed !== null) setFailure(failed);
  };
  return (
    <Modal className="remote-dialog" onEscape={opening ? undefined : onClose} initialFocus={inputRef} onSubmit={(e) => void submit(e)} data-testid="remote-dialog">
      <header className="modal-header">
        <ModalTitle className="modal-title">Open Remote Folder</ModalTitle>
      </header>
      <p className="trust-explainer">
        Tandem on the other machine works on its files under its own rules and asks here about what those leave open.
        The session is kept on this machine{folder ? (
          <>
            {' '}
            under <code>{folder}</code>
          </>
        ) : (
          ' under the folder Tandem was started in'
        )}
        .
      </p>
      <label className="settings-field remote-url">
        <span>Remote folder</span>
        <input
          ref={inputRef}
          type="text"
          data-testid="remote-url"
          placeholder="ssh://user@host/absolute/path"
          spellCheck={false}
          value={url}
          disabled={opening}
          onChange={(event) => setUrl(event.target.value)}
        />
      </label>
      {failure && <ErrorBanner message={failure} />}
      <div className="approval-actions">
        <button type="submit" className="button button-primary" data-testid="remote-open" disabled={opening || url.trim() === ''}>
          {opening ? 'Connecting…' : 'Open'}
        </button>
        <button type="button" className="button" data-testid="remote-cancel" disabled={opening} onClick={onClose}>
          Cancel <kbd>Esc</kbd>
        </button>
      </div>
    </Modal>
  );
}

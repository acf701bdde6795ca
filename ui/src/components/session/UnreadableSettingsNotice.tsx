// The notice for settings files that could not be read or parsed. Such a file may hold deny rules, so every tool
// call asks until it is fixed; the person may look at the file ("Show file") or accept running without it
// ("Accept and continue without this file"), which holds until the file changes on disk. An accepted file stays
// listed on one quiet line.
import { useState } from 'react';
import type { UnreadableSettingsFile } from '../../generated/protocol';
import * as ipc from '../../ipc';
import { shown } from '../../state/decisionSource';

export type UnreadableSettingsNoticeProps = {
  sessionId: string;
  /** The files as the engine last reported them. */
  files: readonly UnreadableSettingsFile[];
  /** The project folder: paths inside it are shown relative to it. */
  root?: string;
};

export function UnreadableSettingsNotice({ sessionId, files, root }: UnreadableSettingsNoticeProps) {
  // The list an acceptance answered with, until the engine reports the files again.
  const [answered, setAnswered] = useState<{ from: readonly UnreadableSettingsFile[]; list: readonly UnreadableSettingsFile[] } | null>(
    null,
  );
  const current = answered && answered.from === files ? answered.list : files;
  if (current.length === 0) return null;
  const accept = async (file: string) => {
    const list = await ipc.acceptUnreadableSettings(sessionId, file);
    setAnswered({ from: files, list });
  };
  return (
    <div className="unreadable-settings" data-testid="unreadable-settings" role="alert">
      {current.map((file) => (
        <UnreadableFile key={file.file} sessionId={sessionId} file={file} root={root} onAccept={accept} />
      ))}
    </div>
  );
}

type FileProps = {
  sessionId: string;
  file: UnreadableSettingsFile;
  root?: string;
  onAccept: (file: string) => Promise<void>;
};

function UnreadableFile({ sessionId, file, root, onAccept }: FileProps) {
  const [text, setText] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const name = shown(file.file, root);
  const toggleText = () => {
    if (text !== null) {
      setText(null);
      return;
    }
    ipc.unreadableSettingsText(sessionId, file.file).then(
      (content) => {
        setText(content);
        setError(null);
      },
      (reason: unknown) => setError(`The file could not be shown: ${ipc.errorMessage(reason)}`),
    );
  };
  const accept = () => {
    setBusy(true);
    onAccept(file.file).then(
      () => {
        setBusy(false);
        setError(null);
      },
      (reason: unknown) => {
        setBusy(false);
        setError(`Not accepted: ${ipc.errorMessage(reason)}`);
      },
    );
  };
  if (file.accepted) {
    return (
      <div className="unreadable-file unreadable-accepted" data-testid="unreadable-settings-file" data-accepted="true">
        Running without <code>{name}</code>, as you accepted; calls ask again if it changes.
      </div>
    );
  }
  return (
    <div className="banner unreadable-file" data-testid="unreadable-settings-file" data-accepted="false">
      <span className="banner-icon" aria-hidden="true">
        !
      </span>
      <div className="unreadable-body">
        <div className="unreadable-title">
          The settings file <code>{name}</code> could not be read: it {file.problem}.
        </div>
        <div className="unreadable-why">
          It may hold deny rules, so every tool call asks until it is fixed. You can accept running without it until it
          changes.
        </div>
        <div className="unreadable-actions">
          <button type="button" className="button" data-testid="unreadable-show" onClick={toggleText}>
            {text === null ? 'Show file' : 'Hide file'}
          </button>
          <button type="button" className="button" data-testid="unreadable-accept" disabled={busy} onClick={accept}>
            Accept and continue without this file
          </button>
        </div>
        {text !== null && (
          <pre className="unreadable-text" data-testid="unreadable-text">
            {text}
          </pre>
        )}
        {error && <div className="unreadable-error">{error}</div>}
      </div>
    </div>
  );
}

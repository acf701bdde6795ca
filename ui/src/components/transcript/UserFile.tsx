// A file the agent handed the person (SendUserFile) and a desktop notification it asked for (PushNotification),
// as transcript rows: the file with its name, folder, size and caption and buttons to open it or show it in its
// folder; the notification as a line with its title.
import { memo, useContext, useState } from 'react';
import { UserFileContext } from '../../state/userFiles';
import { formatBytes } from '../../format';
import { Icon } from '../common/Icon';

export const UserFile = memo(function UserFile({ path, bytes, caption }: { path: string; bytes: number; caption?: string }) {
  const open = useContext(UserFileContext);
  const [error, setError] = useState<string | null>(null);
  const cut = path.lastIndexOf('/');
  const name = path.slice(cut + 1);
  const folder = cut > 0 ? path.slice(0, cut) : '/';
  const act = (reveal: boolean) => {
    if (!open) return;
    open(path, reveal).then(setError, (e: unknown) => setError(String(e)));
  };
  return (
    <aside className="user-file" data-testid="user-file" aria-label={`File from the agent: ${name}`}>
      <div className="brief-label">File from the agent</div>
      <div className="user-file-name" title={path}>
        {name} <span className="user-file-meta">{formatBytes(bytes)} · {folder}</span>
      </div>
      {caption && <div className="user-file-caption">{caption}</div>}
      {open && (
        <div className="user-file-actions">
          <button type="button" onClick={() => act(false)}>
            Open
          </button>
          <button type="button" onClick={() => act(true)}>
            Show in folder
          </button>
        </div>
      )}
      {error && (
        <div className="user-file-error" role="alert">
          {error}
        </div>
      )}
    </aside>
  );
});

export const PushedNotice = memo(function PushedNotice({ title, message }: { title: string; message: string }) {
  return (
    <div className="notice" data-testid="push-notification">
      <span className="notice-mark" aria-hidden="true">
        <Icon name="bell" />
      </span>
      <span>
        <strong>{title}</strong>: {message}
      </span>
    </div>
  );
});

// The window header of an open session: the folder's name and path, and a button to open another.
export type HeaderProps = {
  folderName: string;
  path: string;
  onOpenFolder: () => void;
};

export function Header({ folderName, path, onOpenFolder }: HeaderProps) {
  return (
    <header className="app-header">
      <span className="app-logo" aria-hidden="true" />
      <h1 className="folder-name" data-testid="folder-name" title={path}>
        {folderName}
      </h1>
      <span className="folder-path">{path}</span>
      <span className="status-spacer" />
      <button type="button" className="button button-ghost" onClick={onOpenFolder}>
        Open Folder…
      </button>
    </header>
  );
}

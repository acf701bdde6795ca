// The window without a folder: open one (native picker) or pick a recent folder.
import { baseName } from '../../format';
import { ErrorBanner } from '../common/ErrorBanner';

export type WelcomeProps = {
  recent: readonly string[];
  version: string | null;
  opening: boolean;
  error: string | null;
  onDismissError: () => void;
  onPickFolder: () => void;
  onOpenRecent: (path: string) => void;
  /** Opens the settings dialog (model, key, theme). */
  onOpenSettings?: () => void;
};

export function Welcome({ recent, version, opening, error, onDismissError, onPickFolder, onOpenRecent, onOpenSettings }: WelcomeProps) {
  return (
    <main className="welcome" data-testid="welcome">
      <div className="welcome-card">
        <div className="welcome-brand">
          <span className="app-logo app-logo-large" aria-hidden="true" />
          <div>
            <h1 className="welcome-title">Tandem</h1>
            <p className="welcome-tagline">You and a coding agent, on one project folder.</p>
          </div>
        </div>
        {error && <ErrorBanner message={error} onDismiss={onDismissError} />}
        <button
          type="button"
          className="button button-primary button-large"
          data-testid="open-folder-button"
          disabled={opening}
          onClick={onPickFolder}
        >
          {opening ? 'Opening…' : 'Open Folder…'}
        </button>
        {recent.length > 0 && (
          <section className="recent">
            <h2 className="section-label">Recent</h2>
            <ul className="recent-list" data-testid="recent-list">
              {recent.map((path) => (
                <li key={path}>
                  <button
                    type="button"
                    className="recent-item"
                    data-testid="recent-folder"
                    data-path={path}
                    disabled={opening}
                    onClick={() => onOpenRecent(path)}
                  >
                    <span className="recent-name">{baseName(path)}</span>
                    <span className="recent-path">{path}</span>
                  </button>
                </li>
              ))}
            </ul>
          </section>
        )}
      </div>
      <footer className="welcome-version">
        {version && <span>Tandem {version}</span>}
        {onOpenSettings && (
          <button type="button" className="link-button" data-testid="welcome-settings" onClick={onOpenSettings}>
            Settings
          </button>
        )}
      </footer>
    </main>
  );
}

// A red banner for an error: in the transcript (an engine error) or above the prompt / on the
// welcome screen (a command that failed, e.g. a folder that does not exist).
export function ErrorBanner({ message, onDismiss }: { message: string; onDismiss?: () => void }) {
  return (
    <div className="banner banner-error" data-testid="error-banner" role="alert">
      <span className="banner-icon" aria-hidden="true">
        !
      </span>
      <span className="banner-text">{message}</span>
      {onDismiss && (
        <button type="button" className="banner-close" aria-label="Dismiss" onClick={onDismiss}>
          ×
        </button>
      )}
    </div>
  );
}

// A visible banner with what the user must do before a model can be reached (e.g. add an API key).
import { Icon } from '../common/Icon';
export function SetupHint({ hint }: { hint: string }) {
  return (
    <div className="banner banner-setup" data-testid="setup-hint" role="status">
      <span className="banner-icon" aria-hidden="true">
        <Icon name="gear" />
      </span>
      <span className="banner-text">{hint}</span>
    </div>
  );
}

// Status lines of the transcript that are not conversation: notices from the engine, retry waits
// of the model client, and turns that ended other than normally.
import type { TurnStopReason } from '../../generated/protocol';
import { formatWait, STOP_REASON_LABELS } from '../../format';
import { Icon } from '../common/Icon';

export function Notice({ message }: { message: string }) {
  return (
    <div className="notice" data-testid="notice">
      <span className="notice-mark" aria-hidden="true">
        i
      </span>
      {message}
    </div>
  );
}

export function RetryNotice({
  attempt,
  waitMs,
  reason,
  settled = false,
}: {
  attempt: number;
  waitMs: number;
  reason: string;
  settled?: boolean;
}) {
  return (
    <div className="notice notice-retry" data-testid="retry-notice" data-settled={settled}>
      <span className="notice-mark" aria-hidden="true">
        <Icon name="retry" />
      </span>
      {settled ? `Tried ${attempt} times` : `Retrying in ${formatWait(waitMs)} (attempt ${attempt})`}
      {reason && <span className="dim"> · {reason}</span>}
    </div>
  );
}

export function TurnEnd({ stopReason }: { stopReason: TurnStopReason }) {
  return (
    <div className={`notice notice-stop stop-${stopReason}`} data-testid="turn-end" data-stop-reason={stopReason}>
      <span className="notice-mark" aria-hidden="true">
        <Icon name="stop" />
      </span>
      {STOP_REASON_LABELS[stopReason]}
    </div>
  );
}

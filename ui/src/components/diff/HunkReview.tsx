// The per-hunk review strip of the diff dialog: one toggle per hunk of the proposal (accepted by
// default; a rejected hunk keeps the old lines), and the switch to edit the proposed text by hand.
import type { Hunk } from '../../diff/hunks';
import { Icon } from '../common/Icon';

export type HunkReviewProps = {
  hunks: readonly Hunk[];
  rejected: ReadonlySet<number>;
  onToggle: (number: number) => void;
  editing: boolean;
  onEditToggle: () => void;
  disabled: boolean;
};

export function HunkReview({ hunks, rejected, onToggle, editing, onEditToggle, disabled }: HunkReviewProps) {
  return (
    <div className="hunk-review" data-testid="hunk-review">
      {hunks.length > 1 && (
        <div className="hunk-list" role="group" aria-label="Hunks to accept">
          {hunks.map((hunk) => {
            const accepted = !rejected.has(hunk.number);
            return (
              <button
                key={hunk.number}
                type="button"
                role="checkbox"
                aria-checked={accepted}
                className={`hunk-toggle ${accepted ? 'is-accepted' : 'is-rejected'}`}
                data-testid="hunk-toggle"
                data-hunk={hunk.number}
                disabled={disabled || editing}
                title={accepted ? 'Accepted: click to keep the old lines instead' : 'Rejected: click to accept this hunk'}
                onClick={() => onToggle(hunk.number)}
              >
                <span className="hunk-mark" aria-hidden="true">
                  <Icon name={accepted ? 'check' : 'cross'} />
                </span>
                Hunk {hunk.number}
                <span className="dim">
                  {' '}
                  · line {hunk.line} · +{hunk.added} −{hunk.removed}
                </span>
              </button>
            );
          })}
        </div>
      )}
      <span className="status-spacer" />
      <button
        type="button"
        className={`button button-ghost hunk-edit${editing ? ' is-active' : ''}`}
        data-testid="diff-edit-toggle"
        aria-pressed={editing}
        disabled={disabled}
        onClick={onEditToggle}
      >
        {editing ? 'Show the diff' : 'Edit the proposed text'}
      </button>
    </div>
  );
}

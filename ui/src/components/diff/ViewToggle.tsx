// The side-by-side / unified switch of the diff dialog.
import type { DiffViewMode } from './DiffBody';

export function ViewToggle({ mode, onChange }: { mode: DiffViewMode; onChange: (mode: DiffViewMode) => void }) {
  return (
    <div className="segmented" role="group" aria-label="Diff layout">
      <button
        type="button"
        className={`segmented-option${mode === 'split' ? ' is-active' : ''}`}
        aria-pressed={mode === 'split'}
        data-testid="diff-view-split"
        onClick={() => onChange('split')}
      >
        Side by side
      </button>
      <button
        type="button"
        className={`segmented-option${mode === 'unified' ? ' is-active' : ''}`}
        aria-pressed={mode === 'unified'}
        data-testid="diff-view-unified"
        onClick={() => onChange('unified')}
      >
        Unified
      </button>
    </div>
  );
}

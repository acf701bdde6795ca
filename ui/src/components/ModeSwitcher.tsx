// The permission-mode switcher of the status bar: default / accept edits / plan / bypass.
// Shift+Tab anywhere cycles through them, as in the command-line agent.
import { useEffect } from 'react';
import type { PermissionMode } from '../generated/protocol';
import { MODE_LABELS } from '../format';
import { nextMode, SWITCHABLE_MODES } from '../state/modes';

export type ModeSwitcherProps = {
  mode: PermissionMode;
  onChange: (mode: PermissionMode) => void;
};

export function ModeSwitcher({ mode, onChange }: ModeSwitcherProps) {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Tab' || !event.shiftKey || event.defaultPrevented) return;
      if (document.querySelector('[role="dialog"]')) return;
      event.preventDefault();
      onChange(nextMode(mode));
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [mode, onChange]);

  const modes = SWITCHABLE_MODES.includes(mode) ? SWITCHABLE_MODES : [...SWITCHABLE_MODES, mode];
  return (
    <div className="segmented mode-switcher" role="radiogroup" aria-label="Permission mode" data-testid="mode-switcher" data-mode={mode}>
      {modes.map((each) => (
        <button
          key={each}
          type="button"
          role="radio"
          aria-checked={each === mode}
          className={`segmented-option mode-option mode-${each}${each === mode ? ' is-active' : ''}`}
          data-testid={`mode-${each}`}
          title={each === mode ? `${MODE_LABELS[each]} (Shift+Tab to switch)` : `Switch to ${MODE_LABELS[each]}`}
          onClick={() => each !== mode && onChange(each)}
        >
          {MODE_LABELS[each]}
        </button>
      ))}
    </div>
  );
}

// The permission-mode switcher of the status bar: a button naming the mode in force that opens a menu of
// every mode the session offers (default, accept edits, plan, bypass, don't ask, and auto where a
// classifier model decides), each with what it does. Shift+Tab anywhere cycles through them, as in the
// command-line agent (in the tab shown only).
import { useContext, useEffect, useRef, useState } from 'react';
import type { PermissionMode } from '../../generated/protocol';
import { MODE_LABELS } from '../../format';
import { isShiftTab, MODE_DESCRIPTIONS, nextMode } from '../../state/modes';
import { ShownTabContext } from '../../state/shownTab';
import { Chevron } from '../common/Chevron';

export type ModeSwitcherProps = {
  mode: PermissionMode;
  /** The modes the session offers, in cycle order. */
  modes: readonly PermissionMode[];
  onChange: (mode: PermissionMode) => void;
};

export function ModeSwitcher({ mode, modes, onChange }: ModeSwitcherProps) {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const shown = useContext(ShownTabContext);

  useEffect(() => {
    if (!shown) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isShiftTab(event) || event.defaultPrevented) return;
      if (document.querySelector('[role="dialog"]')) return;
      event.preventDefault();
      setOpen(false);
      onChange(nextMode(mode, modes));
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [shown, mode, modes, onChange]);

  // The menu closes on Esc (before the session's Esc stops a turn) and on a click elsewhere.
  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
    };
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    window.addEventListener('keydown', onKeyDown, true);
    window.addEventListener('pointerdown', onPointerDown);
    return () => {
      window.removeEventListener('keydown', onKeyDown, true);
      window.removeEventListener('pointerdown', onPointerDown);
    };
  }, [open]);

  const listed = modes.includes(mode) ? modes : [...modes, mode];
  return (
    <div className="mode-switcher" ref={rootRef} data-testid="mode-switcher" data-mode={mode}>
      <button
        type="button"
        className={`mode-button mode-${mode}`}
        data-testid="mode-button"
        aria-haspopup="menu"
        aria-expanded={open}
        title={`Permission mode: ${MODE_LABELS[mode]} (Shift+Tab to switch)`}
        onClick={() => setOpen((previous) => !previous)}
      >
        <span className="mode-dot" aria-hidden="true" />
        {MODE_LABELS[mode]}
        <span className="mode-caret">
          <Chevron open={open} />
        </span>
      </button>
      {open && (
        <div className="mode-menu" role="menu" aria-label="Permission mode" data-testid="mode-menu">
          {listed.map((each) => (
            <button
              key={each}
              type="button"
              role="menuitemradio"
              aria-checked={each === mode}
              className={`mode-option mode-${each}${each === mode ? ' is-active' : ''}`}
              data-testid={`mode-${each}`}
              onClick={() => {
                setOpen(false);
                if (each !== mode) onChange(each);
              }}
            >
              <span className="mode-option-label">
                <span className="mode-dot" aria-hidden="true" />
                {MODE_LABELS[each]}
              </span>
              {MODE_DESCRIPTIONS[each] && <span className="mode-option-text">{MODE_DESCRIPTIONS[each]}</span>}
            </button>
          ))}
          <div className="mode-menu-hint dim">Shift+Tab switches to the next mode</div>
        </div>
      )}
    </div>
  );
}

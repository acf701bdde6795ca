// The permission modes the status bar offers, in the order Shift+Tab cycles them: every mode a session
// can use — auto only where the session has a classifier model to decide for it.
import type { PermissionMode } from '../generated/protocol';

const ALWAYS: readonly PermissionMode[] = ['default', 'acceptEdits', 'plan', 'bypassPermissions', 'dontAsk'];

/** What each mode does, one line each (the switcher's menu). */
export const MODE_DESCRIPTIONS: Partial<Record<PermissionMode, string>> = {
  default: 'Asks before edits and commands your rules do not allow',
  acceptEdits: 'Edits files in the folder without asking; commands still ask',
  plan: 'Reads and plans only: nothing changes until you approve a plan',
  bypassPermissions: 'Runs everything without asking; deny rules and safety checks still hold',
  dontAsk: 'Never asks: what your rules do not allow is refused',
  auto: 'A classifier model decides what would ask; what it cannot judge safe still asks',
};

/** The modes a session offers: `autoAvailable` when it has a classifier model. */
export function switchableModes(autoAvailable: boolean): readonly PermissionMode[] {
  return autoAvailable ? [...ALWAYS, 'auto'] : ALWAYS;
}

/** The mode after `mode` among `modes`; a mode not among them goes back to the first. */
export function nextMode(mode: PermissionMode, modes: readonly PermissionMode[]): PermissionMode {
  const index = modes.indexOf(mode);
  return modes[(index + 1) % modes.length] ?? 'default';
}

/**
 * Whether a key press is Shift+Tab. WebKitGTK on X11 reports it with `key` "Unidentified" (the keysym is
 * ISO_Left_Tab) and `code` "Tab", so the physical key (or the legacy key code 9) decides when the key
 * name is not known.
 */
export function isShiftTab(
  event: Pick<KeyboardEvent, 'key' | 'code' | 'keyCode' | 'shiftKey' | 'ctrlKey' | 'altKey' | 'metaKey'>,
): boolean {
  if (!event.shiftKey || event.ctrlKey || event.altKey || event.metaKey) return false;
  return event.key === 'Tab' || event.code === 'Tab' || (event.key === 'Unidentified' && event.keyCode === 9);
}

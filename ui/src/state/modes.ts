// The permission modes the status bar switches between, in the order Shift+Tab cycles them.
import type { PermissionMode } from '../generated/protocol';

export const SWITCHABLE_MODES: readonly PermissionMode[] = ['default', 'acceptEdits', 'plan', 'bypassPermissions'];

/** The mode after `mode` in the cycle; any other mode goes back to the first. */
export function nextMode(mode: PermissionMode): PermissionMode {
  const index = SWITCHABLE_MODES.indexOf(mode);
  return SWITCHABLE_MODES[(index + 1) % SWITCHABLE_MODES.length] ?? 'default';
}

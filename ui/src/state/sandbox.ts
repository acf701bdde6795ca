// The sandbox's refusals on a shell call: how each is described and the one-click allowance the transcript
// offers (the window provides the function that saves it through the engine).
import { createContext } from 'react';
import type { SandboxViolation } from '../generated/protocol';

/** Allows a refusal for the session; resolves to what was added to the settings. Null where it cannot be done. */
export const SandboxAllowContext = createContext<((violation: SandboxViolation) => Promise<string>) | null>(null);

/** One line saying what was refused. */
export function describeViolation(violation: SandboxViolation): string {
  return violation.type === 'network'
    ? `The sandbox refused a connection to ${violation.host}`
    : `The sandbox refused a write to ${violation.path}`;
}

/** The label of the button that allows it. */
export function allowLabel(violation: SandboxViolation): string {
  return violation.type === 'network' ? `Allow ${violation.host}` : 'Allow writing there';
}

/** A stable key for one refusal. */
export function violationKey(violation: SandboxViolation): string {
  return violation.type === 'network' ? `net:${violation.host}` : `write:${violation.path}`;
}

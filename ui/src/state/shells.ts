// The doors from the transcript's shell rows and the background shells list to the engine: move a running
// command to the background, read a background shell's output, stop it.
import { createContext } from 'react';

export type ShellControls = {
  /** Moves the running command of a shell call (every running one when null) to the background. */
  toBackground: (toolUseId: string | null) => void;
  /** The tail of a background shell's output; null when it is gone. */
  output: (taskId: string) => Promise<string | null>;
  /** Stops a background shell. */
  stop: (taskId: string) => void;
};

/** A context: the shell controls of the open session; null where shells cannot be driven (a replay, a test). */
export const ShellControlsContext = createContext<ShellControls | null>(null);

// Stopping a sub-agent, moving a running shell command to the background, reading and stopping a background shell —
// for the transcript's rows and the background lists — with the error of the last one that failed.
import { useCallback, useMemo, useState } from 'react';
import * as ipc from '../../ipc';
import type { ShellControls } from '../../state/shells';

export type BackgroundControls = {
  stopSubAgent: (id: string) => void;
  shellControls: ShellControls;
  /** Why the last stop or move failed. */
  error: string | null;
  clearError: () => void;
};

export function useBackgroundControls(sessionId: string): BackgroundControls {
  const [error, setError] = useState<string | null>(null);
  const settle = useCallback((action: Promise<unknown>, failure: string) => {
    action.then(
      () => setError(null),
      (reason: unknown) => setError(`${failure}: ${ipc.errorMessage(reason)}`),
    );
  }, []);
  const stopSubAgent = useCallback(
    (id: string) => settle(ipc.stopSubAgent(sessionId, id), 'The sub-agent could not be stopped'),
    [sessionId, settle],
  );
  const shellControls = useMemo<ShellControls>(
    () => ({
      toBackground: (toolUseId) =>
        settle(ipc.sendToBackground(sessionId, toolUseId), 'The command could not be moved to the background'),
      output: (taskId) => ipc.backgroundShellOutput(sessionId, taskId),
      stop: (taskId) => settle(ipc.stopBackgroundShell(sessionId, taskId), 'The background shell could not be stopped'),
    }),
    [sessionId, settle],
  );
  const clearError = useCallback(() => setError(null), []);
  return { stopSubAgent, shellControls, error, clearError };
}

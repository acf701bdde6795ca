// The commands offered after `/` in the prompt box: the window's own (which it runs itself), then the session's —
// the engine's, custom commands, skills and its MCP servers' prompts — listed again whenever a server changes.
import { useCallback, useMemo } from 'react';
import type { McpServerStatus, SlashCommand } from '../../generated/protocol';
import * as ipc from '../../ipc';
import { useLoad } from '../useLoad';

/** A command the window runs itself. */
export type WindowCommand = { description: string; run: () => void };

export function useSlashCommands(
  sessionId: string,
  mcpServers: Readonly<Record<string, McpServerStatus>>,
  windowCommands: Readonly<Record<string, WindowCommand>>,
): SlashCommand[] {
  const mcpVersion = Object.values(mcpServers)
    .map((server) => `${server.name}:${server.state.state}:${server.tools.length}:${server.disabled_tools.length}`)
    .join(',');
  const load = useCallback(() => ipc.slashCommands(sessionId), [sessionId]);
  const sessionCommands = useLoad(load, mcpVersion).data;
  return useMemo(
    () => [
      ...Object.entries(windowCommands).map(([name, command]) => ({
        name,
        description: command.description,
        argument_hint: null,
        source: 'window' as const,
      })),
      ...(sessionCommands ?? []).filter((command) => !(command.name in windowCommands)),
    ],
    [windowCommands, sessionCommands],
  );
}

// What a plugin brings, as the plugins panel words it: counts of skills, commands, agents, hooks, MCP and language
// servers.
import type { PluginCounts } from '../generated/protocol';

const PARTS: [keyof PluginCounts, string, string][] = [
  ['skills', 'skill', 'skills'],
  ['commands', 'command', 'commands'],
  ['agents', 'agent', 'agents'],
  ['hooks', 'hook', 'hooks'],
  ['mcp_servers', 'MCP server', 'MCP servers'],
  ['lsp_servers', 'language server', 'language servers'],
];

/** What a plugin brings, e.g. "2 skills · 1 command · 1 MCP server" ("nothing" when it brings nothing). */
export function partsText(counts: PluginCounts): string {
  const parts = PARTS.filter(([key]) => counts[key] > 0).map(([key, one, many]) => `${counts[key]} ${counts[key] === 1 ? one : many}`);
  return parts.length > 0 ? parts.join(' · ') : 'nothing';
}

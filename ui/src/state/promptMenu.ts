// What the prompt box's menu offers for the text before the caret: slash commands while the prompt is
// `/name` (matching names first, then names containing what was typed), or completions of the `@` mention
// the caret is in. Pure functions, tested with the box.
import type { SlashCommand } from '../generated/protocol';

/** The `@` mention being typed: where its `@` is and what follows it up to the caret. */
export type MentionAt = { start: number; query: string };

/** The mention the caret is in (`@` at the start or after a space or bracket; a `"` opens a quoted path). */
export function mentionAt(text: string, caret: number): MentionAt | null {
  const before = text.slice(0, caret);
  const match = /(^|[\s([])@("[^"]*|[^\s"]*)$/.exec(before);
  if (!match) return null;
  const query = match[2] ?? '';
  return { start: before.length - query.length - 1, query: query.replace(/^"/, '') };
}

/** The text with the mention at `at` (up to the end of its word) replaced by `@completion`, and a space after it
 * unless one follows already or the completion ends in `:` (a server, its URI still to type). */
export function completeMention(text: string, at: MentionAt, caret: number, completion: string): { text: string; caret: number } {
  const after = text.slice(caret).replace(/^[^\s]*/, '');
  const inserted = `@${completion}${completion.endsWith(':') || /^\s/.test(after) ? '' : ' '}`;
  const next = text.slice(0, at.start) + inserted + after;
  return { text: next, caret: at.start + inserted.length };
}

/** The commands for a prompt `/typed`: names starting with it, then names containing it. */
export function matchCommands(commands: readonly SlashCommand[], typed: string): SlashCommand[] {
  const starting = commands.filter((command) => command.name.startsWith(typed));
  const containing = typed ? commands.filter((command) => !command.name.startsWith(typed) && command.name.includes(typed)) : [];
  return [...starting, ...containing];
}

/** How the menu names where a command comes from. */
export const SOURCE_LABEL: Record<SlashCommand['source'], string> = {
  window: 'window',
  builtin: 'built-in',
  project: 'project',
  user: 'user',
  skill: 'skill',
  plugin: 'plugin',
  mcp_prompt: 'MCP',
};

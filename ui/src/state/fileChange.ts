// Tool calls that change files: which tools they are (they never fold into the read/search
// summary line) and the file diff a completed call carries in `tool_call_result.detail.diff`.
import type { FileDiff } from '../generated/protocol';
import type { ToolCall } from './transcript';

export const FILE_CHANGE_TOOLS: ReadonlySet<string> = new Set(['Edit', 'Write', 'NotebookEdit', 'MultiEdit']);

export function changesFiles(call: ToolCall): boolean {
  const kind = call.hints?.kind;
  return FILE_CHANGE_TOOLS.has(call.name) || kind === 'edit' || kind === 'write';
}

function isFileDiff(value: unknown): value is FileDiff {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.path === 'string' &&
    typeof record.old_text === 'string' &&
    typeof record.new_text === 'string' &&
    typeof record.is_new_file === 'boolean'
  );
}

/** The diff of a completed call's result, when its detail has one. */
export function resultDiff(call: ToolCall): FileDiff | null {
  const detail = call.result?.detail;
  if (typeof detail !== 'object' || detail === null) return null;
  const diff = (detail as Record<string, unknown>).diff;
  return isFileDiff(diff) ? diff : null;
}

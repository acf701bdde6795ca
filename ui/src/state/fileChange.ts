// Tool calls that change files: known by the kind of work their hints name or by the file change their result
// carries, never by the tool's name. They never fold into the read/search summary line.
import type { FileDiff } from '../generated/protocol';
import { detailDiff } from './toolDetail';
import type { ToolCall } from './transcript';

export function changesFiles(call: ToolCall): boolean {
  const kind = call.hints?.kind;
  return kind === 'edit' || kind === 'write' || call.result?.detail?.type === 'file_change';
}

/** The diff of a completed call's result, when its detail has one. */
export function resultDiff(call: ToolCall): FileDiff | null {
  return detailDiff(call.result?.detail ?? null);
}

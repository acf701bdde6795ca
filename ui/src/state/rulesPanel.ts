// What the rules panel derives: the session's past calls with the decision that let them run or stopped them, and the
// scopes a person may edit rules in.
import type { PermissionDecision, RuleScope } from '../generated/protocol';
import type { TranscriptItem } from './transcript';

/** A call of this session and what decided it. */
export type PastCall = { id: string; name: string; title: string; decision: PermissionDecision; asked: boolean };

/** Every tool call of the transcript that has a decision, newest first. */
export function pastCalls(items: readonly TranscriptItem[]): PastCall[] {
  const out: PastCall[] = [];
  for (const item of items) {
    if (item.kind !== 'tool' || !item.call.decision) continue;
    const call = item.call;
    out.push({ id: call.id, name: call.name, title: call.hints?.title ?? call.name, decision: call.decision!, asked: call.asked });
  }
  return out.reverse();
}

/** The scopes rules can be added to, moved between and removed from, with their labels. */
export const EDITABLE_SCOPES: readonly { scope: RuleScope; label: string }[] = [
  { scope: 'localSettings', label: 'Local (this folder, not shared)' },
  { scope: 'projectSettings', label: 'Project (shared with the repository)' },
  { scope: 'userSettings', label: 'User (every folder)' },
];

export function isEditable(scope: RuleScope): boolean {
  return EDITABLE_SCOPES.some((each) => each.scope === scope);
}

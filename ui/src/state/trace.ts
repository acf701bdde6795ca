// The steps of a decision trace in words, one line each: "Mode: Default", "Rule Bash(rm *) (deny) in
// .claude/settings.json — decided", "Hook ./check.sh (PreToolUse, .claude/settings.json): exit 0, asks — reason",
// "Check: protected path — .git/config is a protected path", "Converted ask to deny: dontAsk mode denies what would
// ask".
import type { DecisionBehavior, TraceCheck, TraceStep } from '../generated/protocol';
import { MODE_LABELS } from '../format';
import { SCOPES, shown } from './decisionSource';

const TRACE_CHECKS: Record<TraceCheck, string> = {
  protected_path: 'protected path',
  critical_removal: 'removal of a critical path',
  network_path: 'network path',
  private_address: 'loopback or private address',
  unreadable_settings: 'unreadable settings file',
  unreadable_settings_accepted: 'unreadable settings file, accepted by you',
  outside_working_directories: 'outside the working directories',
  unanalysable_command: 'command that cannot be analysed',
  carried_command: 'command run from an option, a variable or a wrapper',
  walks_covered_files: 'reads a folder holding files a read rule covers',
};

const VERBS: Record<DecisionBehavior, string> = { allow: 'allows', ask: 'asks', deny: 'denies' };

/** One step as a kind label and its text; paths inside `root` are shown relative to it. */
export function describeStep(step: TraceStep, root?: string): { kind: string; text: string } {
  switch (step.type) {
    case 'mode':
      return { kind: 'Mode', text: `${MODE_LABELS[step.mode]}` };
    case 'rule': {
      const where = step.file ? shown(step.file, root) : SCOPES[step.scope];
      const role = step.role === 'decided' ? 'decided' : 'also matches, overridden';
      return { kind: 'Rule', text: `${step.rule} (${step.behavior}) in ${where} — ${role}` };
    }
    case 'hook': {
      const answer = step.decision ? `, ${VERBS[step.decision]}` : ', no decision';
      const reason = step.reason ? ` — ${step.reason}` : '';
      return {
        kind: 'Hook',
        text: `${step.command} (${step.event}, ${shown(step.source, root)}): ${step.outcome}${answer}${reason}`,
      };
    }
    case 'check':
      return { kind: 'Check', text: `${TRACE_CHECKS[step.check]} — ${step.detail}` };
    case 'classifier':
      return { kind: 'Classifier', text: `${VERBS[step.decision]} — ${step.reason}` };
    case 'ask_converted':
      return { kind: 'Converted', text: `ask to deny: ${step.detail}` };
  }
}

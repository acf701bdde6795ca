// What decided a permission answer, in words: "Rule Bash(rm *) in .claude/settings.json", "Hook ./check.sh",
// "Default mode", "Safety check: protected path", ... from the typed source the engine sends.
import type { DecisionSource, PermissionDecision, RuleScope, SafetyCheck } from '../generated/protocol';
import { MODE_LABELS } from '../format';

const SCOPES: Record<RuleScope, string> = {
  policySettings: 'the managed policy',
  flagSettings: 'a --settings file',
  cliArg: 'the command line',
  localSettings: 'the local project settings',
  projectSettings: 'the project settings',
  userSettings: 'your user settings',
  session: 'this session',
};

const CHECKS: Record<SafetyCheck, string> = {
  protected_path: 'protected path',
  critical_removal: 'removal of a critical path',
  network_path: 'network path',
  private_address: 'loopback or private address',
  unreadable_settings: 'a settings file that could not be read',
};

/** `file` relative to `root` when it is inside it. */
function shown(file: string, root: string | undefined): string {
  if (!root) return file;
  const prefix = root.endsWith('/') ? root : `${root}/`;
  return file.startsWith(prefix) ? file.slice(prefix.length) : file;
}

/** One line naming what decided; paths inside `root` (the project folder) are shown relative to it. */
export function describeDecisionSource(source: DecisionSource, root?: string): string {
  switch (source.type) {
    case 'rule':
      return `Rule ${source.rule} in ${source.file ? shown(source.file, root) : SCOPES[source.scope]}`;
    case 'hook':
      return `Hook ${source.command}`;
    case 'mode':
      return `${MODE_LABELS[source.mode]} mode`;
    case 'safety_check':
      return `Safety check: ${CHECKS[source.check]}`;
    case 'classifier':
      return `Auto-mode classifier: ${source.reason}`;
    case 'tool':
      return `The ${source.tool} tool`;
    case 'working_directories':
      return 'Inside the working directories';
    case 'no_prompt':
      return 'No one can be asked here';
    case 'sandbox':
      return 'The shell sandbox (autoAllowBashIfSandboxed)';
  }
}

/** What decided `decision`: the typed source, or for decisions stored before it existed, the old source text. */
export function decisionSourceText(decision: PermissionDecision, root?: string): string | null {
  if (decision.decided_by) return describeDecisionSource(decision.decided_by, root);
  return decision.source;
}

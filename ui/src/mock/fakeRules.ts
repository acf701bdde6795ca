// The fake backend's rules and hooks panels: an in-memory list of rules per scope (added, removed, moved; a rule with
// unbalanced parentheses is refused like the engine's parser refuses it), a "test a call" that answers from those
// rules with a trace, and one PreToolUse hook whose try-out answers deny.
import type {
  CallCheck,
  DecisionBehavior,
  DecisionSource,
  HookListing,
  HookTestResult,
  RuleListing,
  RuleScope,
  RulesView,
  TraceStep,
} from '../generated/protocol';
import { FAKE_ROOT } from './fakeProject';

const FILES: Partial<Record<RuleScope, string>> = {
  localSettings: `${FAKE_ROOT}/.claude/settings.local.json`,
  projectSettings: `${FAKE_ROOT}/.claude/settings.json`,
  userSettings: '/home/dev/.claude/settings.json',
};

type Rule = { rule: string; behavior: DecisionBehavior; scope: RuleScope };

function fail(message: string): never {
  throw { code: 'rules', message };
}

/** `Bash(npm test)` -> `npm test`; `Bash(git push:*)` -> prefix `git push`. */
function matches(rule: string, tool: string, input: unknown): boolean {
  const open = rule.indexOf('(');
  if (open < 0) return rule === tool;
  if (rule.slice(0, open) !== tool) return false;
  const spec = rule.slice(open + 1, -1);
  const given = typeof input === 'object' && input !== null ? (input as Record<string, unknown>).command : undefined;
  const command = typeof given === 'string' ? given : '';
  if (spec.endsWith(':*')) return command.startsWith(spec.slice(0, -2));
  if (spec.endsWith(' *')) return command.startsWith(spec.slice(0, -1));
  return command === spec;
}

export class FakeRules {
  rules: Rule[] = [
    { rule: 'Bash(npm run test:*)', behavior: 'allow', scope: 'localSettings' },
    { rule: 'Bash(rm -rf build)', behavior: 'allow', scope: 'projectSettings' },
    { rule: 'Bash(rm *)', behavior: 'deny', scope: 'projectSettings' },
    { rule: 'Bash(git push:*)', behavior: 'ask', scope: 'userSettings' },
  ];

  view(trusted: boolean): RulesView {
    const listing = this.rules.map((each): RuleListing => {
      const shadowedBy = this.rules
        .filter((other) => each.behavior === 'allow' && other.behavior !== 'allow')
        .filter((other) => other.rule.endsWith(' *)') && each.rule.startsWith(other.rule.slice(0, -2)))
        .map((other) => `${other.behavior}: ${other.rule}`);
      return {
        rule: each.rule,
        behavior: each.behavior,
        scope: each.scope,
        file: FILES[each.scope] ?? null,
        applies: true,
        problem: null,
        shadowed_by: shadowedBy,
        contradicts: this.rules
          .filter((other) => other.rule === each.rule && other.behavior !== each.behavior)
          .map((other) => `${other.behavior}: ${FILES[other.scope] ?? other.scope}`),
        set_aside: null,
      };
    });
    return {
      rules: listing,
      files: { local: FILES.localSettings!, project: FILES.projectSettings!, user: FILES.userSettings! },
      trust: { trusted, allow_rules: [], directories: [], hooks: [], mcp_servers: [] },
    };
  }

  add(scope: RuleScope, behavior: DecisionBehavior, rule: string): void {
    if (!FILES[scope]) fail(`rules of ${scope} cannot be edited here (only local, project and user settings)`);
    const open = (rule.match(/\(/g) ?? []).length;
    const close = (rule.match(/\)/g) ?? []).length;
    if (open !== close || (open > 0 && !rule.endsWith(')'))) {
      fail(`\`${rule}\` is not a valid ${behavior} rule: unbalanced parenthesis`);
    }
    if (!this.rules.some((each) => each.rule === rule && each.behavior === behavior && each.scope === scope)) {
      this.rules.push({ rule, behavior, scope });
    }
  }

  remove(scope: RuleScope, behavior: DecisionBehavior, rule: string): void {
    const at = this.rules.findIndex((each) => each.rule === rule && each.behavior === behavior && each.scope === scope);
    if (at < 0) fail(`\`${rule}\` is not in the ${behavior} list of ${FILES[scope] ?? scope}`);
    this.rules.splice(at, 1);
  }

  move(from: RuleScope, to: RuleScope, behavior: DecisionBehavior, rule: string): void {
    this.remove(from, behavior, rule);
    this.add(to, behavior, rule);
  }

  check(tool: string, input: unknown): CallCheck {
    const steps: TraceStep[] = [{ type: 'mode', mode: 'default' }];
    const hits = (['deny', 'ask', 'allow'] as const).flatMap((behavior) =>
      this.rules.filter((each) => each.behavior === behavior && matches(each.rule, tool, input)),
    );
    hits.forEach((hit, index) =>
      steps.push({
        type: 'rule',
        rule: hit.rule,
        behavior: hit.behavior,
        scope: hit.scope,
        file: FILES[hit.scope] ?? null,
        role: index === 0 ? 'decided' : 'shadowed',
      }),
    );
    const first = hits[0];
    const decidedBy: DecisionSource = first
      ? { type: 'rule', rule: first.rule, behavior: first.behavior, scope: first.scope, file: FILES[first.scope] ?? null }
      : { type: 'mode', mode: 'default' };
    return {
      decision: first ? first.behavior : 'ask',
      reason: first ? `${tool} is decided by the ${first.behavior} rule \`${first.rule}\`` : `${tool} needs approval`,
      trace: { steps, decided_by: decidedBy },
      suggestions: [],
    };
  }
}

export const FAKE_HOOK: HookListing = {
  event: 'PreToolUse',
  matcher: 'Bash',
  command: './scripts/audit-command.sh',
  timeout_secs: 60,
  source: `${FAKE_ROOT}/.claude/settings.json`,
  active: true,
  sample_input: {
    session_id: 'session-1',
    cwd: FAKE_ROOT,
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command: 'npm test' },
  },
};

export function fakeHookRun(input: unknown): HookTestResult {
  const command = JSON.stringify((input as { tool_input?: unknown } | null)?.tool_input ?? {});
  return {
    exit_code: 2,
    stdout: '',
    stderr: `audit: refused ${command}\n`,
    timed_out: false,
    outcome: 'exit 2',
    decision: 'deny',
    reason: `audit: refused ${command}`,
    block: null,
    errors: [],
  };
}

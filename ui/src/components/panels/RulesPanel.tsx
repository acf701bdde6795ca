// The rules panel: every rule of every settings source with its scope and file, flagged when it is shadowed (an allow
// a deny or ask rule covers, so it never allows anything), contradicted (the same pattern in another list) or set
// aside in auto mode (an allow rule that would let any code run, left to the classifier); a rule
// is added (to the local, project or user settings, checked by the engine's parser, its error shown), removed or moved
// between those scopes. Below: which rule decided each call of this session, a "test a command" box answering a tool
// call with its decision trace, and the folder's trust with a revoke button. Esc closes.
import { useRef, useState, type FormEvent } from 'react';
import type {
  CallCheck,
  DecisionBehavior,
  RuleListing,
  RuleScope,
  RulesView,
} from '../../generated/protocol';
import { errorMessage } from '../../ipc';
import { decisionSourceText, shown } from '../../state/decisionSource';
import { EDITABLE_SCOPES, isEditable, type PastCall } from '../../state/rulesPanel';
import { DecisionTraceView } from '../dialogs/DecisionTraceView';
import { useLoad } from '../../hooks/useLoad';
import { ErrorBanner } from '../common/ErrorBanner';
import { Modal, ModalTitle } from '../dialogs/Modal';

export type RulesPanelProps = {
  load: () => Promise<RulesView>;
  add: (scope: RuleScope, behavior: DecisionBehavior, rule: string) => Promise<void>;
  remove: (scope: RuleScope, behavior: DecisionBehavior, rule: string) => Promise<void>;
  move: (from: RuleScope, to: RuleScope, behavior: DecisionBehavior, rule: string) => Promise<void>;
  check: (tool: string, input: unknown) => Promise<CallCheck>;
  /** Withdraws trust in the folder (the panel reloads after). */
  revokeTrust: () => Promise<void>;
  /** The calls of this session with their decisions, newest first. */
  calls: readonly PastCall[];
  /** The project folder: settings files inside it are named relative to it. */
  root?: string;
  onClose: () => void;
};

const BEHAVIORS: readonly DecisionBehavior[] = ['allow', 'ask', 'deny'];

export function RulesPanel({ load, add, remove, move, check, revokeTrust, calls, root, onClose }: RulesPanelProps) {
  const closeRef = useRef<HTMLButtonElement>(null);
  const rules = useLoad(load);
  const { data: view, reload } = rules;
  const [actError, setError] = useState<string | null>(null);
  const error = actError ?? rules.error;
  /** Runs an edit, then reloads; an error stays on screen. Resolves to whether it worked. */
  const act = async (action: () => Promise<unknown>): Promise<boolean> => {
    setError(null);
    try {
      await action();
      reload();
      return true;
    } catch (cause) {
      setError(errorMessage(cause));
      return false;
    }
  };

  return (
    <Modal className="rules-panel" onEscape={onClose} initialFocus={closeRef} data-testid="rules-panel">
      <header className="modal-header">
        <ModalTitle className="modal-title">
          Permission rules
        </ModalTitle>
        <span className="status-spacer" />
        <button ref={closeRef} type="button" className="button" data-testid="rules-close" onClick={onClose}>
          Close <kbd>Esc</kbd>
        </button>
      </header>
      {error && <ErrorBanner message={error} />}
      <AddRule onAdd={(scope, behavior, rule) => act(() => add(scope, behavior, rule))} />
      {view && view.rules.length === 0 && (
        <p className="dim" data-testid="rules-none">
          No rule is configured: the mode decides what asks.
        </p>
      )}
      {view && view.rules.length > 0 && (
        <table className="rules-table">
          <thead>
            <tr>
              <th>Rule</th>
              <th>List</th>
              <th>Where</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {view.rules.map((rule, index) => (
              <RuleRow
                key={`${rule.behavior}:${rule.rule}:${rule.scope}:${index}`}
                rule={rule}
                root={root}
                onRemove={() => void act(() => remove(rule.scope, rule.behavior, rule.rule))}
                onMove={(to) => void act(() => move(rule.scope, to, rule.behavior, rule.rule))}
              />
            ))}
          </tbody>
        </table>
      )}
      <TestCall check={check} root={root} />
      <section className="rules-section">
        <h3 className="rules-heading">Decisions in this session</h3>
        {calls.length === 0 ? (
          <p className="dim" data-testid="rules-no-calls">
            No tool call yet.
          </p>
        ) : (
          <ul className="rules-calls">
            {calls.map((call) => (
              <li key={call.id} data-testid="rules-call" data-decision={call.decision.decision}>
                <span className={`rules-behavior behavior-${call.decision.decision}`}>{call.decision.decision}</span>{' '}
                <span className="rules-call-title">{call.title}</span>
                <span className="dim"> — {decisionSourceText(call.decision, root) ?? call.decision.reason}</span>
                {call.asked && <span className="dim"> (you were asked)</span>}
              </li>
            ))}
          </ul>
        )}
      </section>
      {view && (
        <section className="rules-section" data-testid="rules-trust" data-trusted={view.trust.trusted}>
          <h3 className="rules-heading">Folder trust</h3>
          {view.trust.trusted ? (
            <p>
              This folder is trusted: its allow rules, extra directories, hooks and MCP servers apply.{' '}
              <button type="button" className="button" data-testid="rules-revoke" onClick={() => void act(revokeTrust)}>
                Revoke trust
              </button>
            </p>
          ) : (
            <p className="dim">This folder is not trusted: its allow rules, hooks and MCP servers wait until you trust it.</p>
          )}
        </section>
      )}
    </Modal>
  );
}

/** `allow: /p/.claude/settings.json` with the file relative to the project. */
function listAndFile(text: string, root?: string): string {
  const at = text.indexOf(': ');
  return at < 0 ? text : `${text.slice(0, at)}: ${shown(text.slice(at + 2), root)}`;
}

function RuleRow({
  rule,
  root,
  onRemove,
  onMove,
}: {
  rule: RuleListing;
  root?: string;
  onRemove: () => void;
  onMove: (to: RuleScope) => void;
}) {
  const editable = isEditable(rule.scope);
  const flagged = rule.shadowed_by.length > 0 || rule.contradicts.length > 0;
  return (
    <tr
      className={`rules-row${rule.applies ? '' : ' rules-row-inactive'}${flagged ? ' rules-row-flagged' : ''}`}
      data-testid="rule-row"
      data-rule={rule.rule}
      data-behavior={rule.behavior}
      data-scope={rule.scope}
    >
      <td>
        <code>{rule.rule}</code>
        {rule.problem && (
          <div className="rules-problem" data-testid="rule-problem">
            {rule.problem}
          </div>
        )}
        {rule.shadowed_by.length > 0 && (
          <div className="rules-flag" data-testid="rule-shadowed">
            Never applies: covered by {rule.shadowed_by.join(', ')}
          </div>
        )}
        {rule.set_aside && (
          <div className="rules-flag" data-testid="rule-set-aside">
            Set aside in auto mode: {rule.set_aside}. It applies again when the session leaves auto mode.
          </div>
        )}
        {rule.contradicts.length > 0 && (
          <div className="rules-flag" data-testid="rule-contradicts">
            Contradicts the same rule in {rule.contradicts.map((c) => listAndFile(c, root)).join(', ')}
          </div>
        )}
      </td>
      <td>
        <span className={`rules-behavior behavior-${rule.behavior}`}>{rule.behavior}</span>
      </td>
      <td className="rules-where" title={rule.file ?? rule.scope}>
        {rule.file ? shown(rule.file, root) : rule.scope}
      </td>
      <td className="rules-actions">
        {editable && (
          <>
            <select
              aria-label={`Move ${rule.rule} to`}
              data-testid="rule-move"
              value=""
              onChange={(event) => event.target.value && onMove(event.target.value as RuleScope)}
            >
              <option value="">Move to…</option>
              {EDITABLE_SCOPES.filter((each) => each.scope !== rule.scope).map((each) => (
                <option key={each.scope} value={each.scope}>
                  {each.label}
                </option>
              ))}
            </select>
            <button type="button" className="button" data-testid="rule-remove" aria-label={`Remove ${rule.rule}`} onClick={onRemove}>
              Remove
            </button>
          </>
        )}
      </td>
    </tr>
  );
}

function AddRule({ onAdd }: { onAdd: (scope: RuleScope, behavior: DecisionBehavior, rule: string) => Promise<boolean> }) {
  const [rule, setRule] = useState('');
  const [behavior, setBehavior] = useState<DecisionBehavior>('allow');
  const [scope, setScope] = useState<RuleScope>('localSettings');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!rule.trim()) return;
    void onAdd(scope, behavior, rule.trim()).then((ok) => ok && setRule(''));
  };
  return (
    <form className="rules-add" data-testid="rule-add" onSubmit={submit}>
      <input
        className="rules-input"
        data-testid="rule-text"
        aria-label="Rule"
        placeholder="Bash(npm run test:*)"
        value={rule}
        onChange={(event) => setRule(event.target.value)}
      />
      <select aria-label="List" data-testid="rule-behavior" value={behavior} onChange={(event) => setBehavior(event.target.value as DecisionBehavior)}>
        {BEHAVIORS.map((b) => (
          <option key={b} value={b}>
            {b}
          </option>
        ))}
      </select>
      <select aria-label="Scope" data-testid="rule-scope" value={scope} onChange={(event) => setScope(event.target.value as RuleScope)}>
        {EDITABLE_SCOPES.map((each) => (
          <option key={each.scope} value={each.scope}>
            {each.label}
          </option>
        ))}
      </select>
      <button type="submit" className="button button-primary" data-testid="rule-add-button" disabled={!rule.trim()}>
        Add rule
      </button>
    </form>
  );
}

function TestCall({ check, root }: { check: (tool: string, input: unknown) => Promise<CallCheck>; root?: string }) {
  const [tool, setTool] = useState('Bash');
  const [input, setInput] = useState('{"command": "npm test"}');
  const [answer, setAnswer] = useState<CallCheck | null>(null);
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    let parsed: unknown;
    try {
      parsed = JSON.parse(input);
    } catch (cause) {
      setAnswer(null);
      setError(`The input is not JSON: ${errorMessage(cause)}`);
      return;
    }
    check(tool.trim(), parsed).then(setAnswer, (cause: unknown) => setError(errorMessage(cause)));
  };
  return (
    <section className="rules-section">
      <h3 className="rules-heading">Test a call</h3>
      <form className="rules-test" data-testid="rule-test" onSubmit={submit}>
        <input className="rules-tool" aria-label="Tool" data-testid="rule-test-tool" value={tool} onChange={(event) => setTool(event.target.value)} />
        <textarea
          className="rules-test-input"
          aria-label="Input (JSON)"
          data-testid="rule-test-input"
          spellCheck={false}
          rows={2}
          value={input}
          onChange={(event) => setInput(event.target.value)}
        />
        <button type="submit" className="button" data-testid="rule-test-button">
          Check
        </button>
      </form>
      {error && <ErrorBanner message={error} />}
      {answer && (
        <div className="rules-test-answer" data-testid="rule-test-answer" data-decision={answer.decision}>
          <p>
            <span className={`rules-behavior behavior-${answer.decision}`}>{answer.decision}</span> {answer.reason}
          </p>
          <DecisionTraceView trace={answer.trace} root={root} summary="Trace" open />
        </div>
      )}
    </section>
  );
}

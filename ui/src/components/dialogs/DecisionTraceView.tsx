// "Why am I asked?": the collapsible list of a decision's steps (the mode, the rules that matched with their
// files, the hooks that ran and what they answered, the checks that fired) and what finally decided.
import type { DecisionTrace } from '../../generated/protocol';
import { describeDecisionSource } from '../../state/decisionSource';
import { describeStep } from '../../state/trace';

export type DecisionTraceViewProps = {
  trace: DecisionTrace | null | undefined;
  /** The project folder: settings files inside it are named relative to it. */
  root?: string;
  /** The summary line of the collapsible section. */
  summary?: string;
  /** Open at first (the rules panel's tester shows it open). */
  open?: boolean;
};

export function DecisionTraceView({ trace, root, summary = 'Why am I asked?', open = false }: DecisionTraceViewProps) {
  if (!trace) return null;
  return (
    <details className="decision-trace" data-testid="decision-trace" open={open}>
      <summary>{summary}</summary>
      <ol className="decision-trace-steps">
        {trace.steps.map((step, index) => {
          const { kind, text } = describeStep(step, root);
          return (
            <li key={index} className={`trace-step trace-${step.type}`} data-testid="trace-step" data-type={step.type}>
              <span className="trace-kind">{kind}</span> <span className="trace-text">{text}</span>
            </li>
          );
        })}
      </ol>
      {trace.decided_by && (
        <p className="decision-trace-final" data-testid="trace-decided-by">
          <span className="dim">Decided by </span>
          {describeDecisionSource(trace.decided_by, root)}
        </p>
      )}
    </details>
  );
}

// The line of a permission dialog naming what decided to ask, e.g. "Asked by: Rule Bash(rm *) in
// .claude/settings.json". Nothing for requests stored before the engine sent a typed source.
import type { DecisionSource } from '../../generated/protocol';
import { describeDecisionSource } from '../../state/decisionSource';

export type DecisionSourceLineProps = {
  source: DecisionSource | null;
  /** The project folder: settings files inside it are named relative to it. */
  root?: string;
  className?: string;
};

export function DecisionSourceLine({ source, root, className = 'approval-source' }: DecisionSourceLineProps) {
  if (!source) return null;
  return (
    <p className={className} data-testid="approval-source" data-source={source.type}>
      <span className="dim">Asked by </span>
      {describeDecisionSource(source, root)}
    </p>
  );
}

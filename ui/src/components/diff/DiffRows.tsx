// The row kinds of a diff view: a unified line (old and new numbers, sign, code), a side-by-side
// pair (old line left, new line right, either side possibly empty), and a folded run of unchanged
// lines that expands on click.
import type { Fold } from '../../diff/fold';
import type { DiffModel } from '../../diff/model';
import { DiffCode } from './DiffCode';
import { Icon } from '../common/Icon';

const SIGNS = { context: ' ', del: '−', add: '+' } as const;

export function UnifiedLine({ model, index }: { model: DiffModel; index: number }) {
  const line = model.lines[index];
  if (!line) return null;
  return (
    <div className={`diff-line diff-${line.kind}`} data-testid="diff-line" data-kind={line.kind}>
      <span className="diff-num">{line.oldNo ?? ''}</span>
      <span className="diff-num">{line.newNo ?? ''}</span>
      <span className="diff-sign" aria-hidden="true">
        {SIGNS[line.kind]}
      </span>
      <DiffCode model={model} index={index} />
    </div>
  );
}

export function SplitPair({ model, left, right }: { model: DiffModel; left: number | null; right: number | null }) {
  return (
    <div className="diff-pair" data-testid="diff-line" data-kind={left === right ? 'context' : 'change'}>
      <SplitHalf model={model} index={left} side="old" />
      <SplitHalf model={model} index={right} side="new" />
    </div>
  );
}

function SplitHalf({ model, index, side }: { model: DiffModel; index: number | null; side: 'old' | 'new' }) {
  const line = index === null ? undefined : model.lines[index];
  if (!line || index === null) return <div className="diff-half diff-empty" />;
  return (
    <div className={`diff-half diff-${line.kind}`}>
      <span className="diff-num">{side === 'old' ? line.oldNo : line.newNo}</span>
      <span className="diff-sign" aria-hidden="true">
        {SIGNS[line.kind]}
      </span>
      <DiffCode model={model} index={index} />
    </div>
  );
}

export function FoldRow({ model, fold, onExpand }: { model: DiffModel; fold: Fold; onExpand: (id: number) => void }) {
  const count = fold.end - fold.start;
  const first = model.lines[fold.start];
  const last = model.lines[fold.end - 1];
  return (
    <button type="button" className="diff-fold" data-testid="diff-fold" onClick={() => onExpand(fold.id)}>
      <span className="diff-fold-icon" aria-hidden="true">
        <Icon name="expand" />
      </span>
      Show {count} unchanged lines
      <span className="diff-fold-range">
        {first?.newNo}–{last?.newNo}
      </span>
    </button>
  );
}

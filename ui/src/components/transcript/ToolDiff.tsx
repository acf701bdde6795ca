// The diff a completed file change carries, in the transcript: a one-line summary (file, +N −M)
// that expands into a unified, highlighted diff with folded unchanged runs. Collapsed by default.
import { memo, useMemo } from 'react';
import type { FileDiff } from '../../generated/protocol';
import { useHighlighter } from '../../diff/highlighter';
import { buildDiffModel } from '../../diff/model';
import { useExpanded } from '../../state/expansion';
import { Chevron } from '../common/Chevron';
import { DiffBody } from '../diff/DiffBody';
import { DiffStats } from '../diff/DiffStats';
import { FilePath } from '../diff/FilePath';

export const ToolDiff = memo(function ToolDiff({ callId, diff }: { callId: string; diff: FileDiff }) {
  const [open, toggle] = useExpanded(`diff:${callId}`);
  const hljs = useHighlighter();
  const model = useMemo(() => buildDiffModel(diff, hljs), [diff, hljs]);
  return (
    <div className="tool-diff" data-testid="tool-diff" data-open={open}>
      <button type="button" className="tool-diff-head" aria-expanded={open} onClick={toggle} data-testid="tool-diff-toggle">
        <Chevron open={open} />
        <FilePath path={diff.path} />
        {diff.is_new_file && <span className="diff-badge">New file</span>}
        <DiffStats added={model.added} removed={model.removed} />
      </button>
      {open && <DiffBody model={model} view="unified" />}
    </div>
  );
});

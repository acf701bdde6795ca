// "+12 −3": the lines a change adds and removes.
export function DiffStats({ added, removed }: { added: number; removed: number }) {
  return (
    <span className="diff-stats" data-testid="diff-stats">
      <span className="diff-stats-added">+{added}</span> <span className="diff-stats-removed">−{removed}</span>
    </span>
  );
}

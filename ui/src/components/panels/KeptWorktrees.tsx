// The worktrees agents left with changes (an Agent call with `isolation: "worktree"`): each branch
// with its changed files, merged into the project's current branch or discarded with one click.
// Shown at the top of the changes view; nothing when there is none.
import { useState } from 'react';
import type { KeptWorktree } from '../../generated/protocol';
import { errorMessage } from '../../ipc';
import { useLoad } from '../../hooks/useLoad';
import { ErrorBanner } from '../common/ErrorBanner';

export type KeptWorktreesProps = {
  load: () => Promise<KeptWorktree[]>;
  settle: (branch: string, merge: boolean) => Promise<void>;
};

export function KeptWorktrees({ load, settle }: KeptWorktreesProps) {
  const listed = useLoad(load);
  const worktrees = listed.data ?? [];
  const refresh = listed.reload;
  const [actError, setError] = useState<string | null>(null);
  const error = actError ?? listed.error;
  const [busy, setBusy] = useState<string | null>(null);

  const act = async (branch: string, merge: boolean) => {
    setBusy(branch);
    setError(null);
    try {
      await settle(branch, merge);
      refresh();
    } catch (cause) {
      setError(errorMessage(cause));
    } finally {
      setBusy(null);
    }
  };

  if (worktrees.length === 0 && !error) return null;
  return (
    <section className="kept-worktrees" data-testid="kept-worktrees" aria-label="Worktrees agents left">
      {error && <ErrorBanner message={error} />}
      {worktrees.map((worktree) => (
        <div key={worktree.branch} className="kept-worktree" data-testid="kept-worktree" data-branch={worktree.branch}>
          <code className="kept-branch">{worktree.branch}</code>
          <span className="dim">
            {worktree.changed_files.length} changed {worktree.changed_files.length === 1 ? 'file' : 'files'}:{' '}
            {worktree.changed_files.slice(0, 4).join(', ')}
            {worktree.changed_files.length > 4 ? ', …' : ''}
          </span>
          <span className="status-spacer" />
          <button type="button" className="button button-primary" data-testid="worktree-merge" disabled={busy !== null} onClick={() => void act(worktree.branch, true)}>
            Merge
          </button>
          <button type="button" className="button button-danger" data-testid="worktree-discard" disabled={busy !== null} onClick={() => void act(worktree.branch, false)}>
            Discard
          </button>
        </div>
      ))}
    </section>
  );
}

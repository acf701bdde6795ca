// The changes view: every file the session changed, each with one combined diff from its content
// before the session's first change to now (read only), each naming the sub-agents that changed it, and above them the worktrees agents left
// with changes, to merge or discard. Opened from the status bar; Esc closes.
import { useMemo, useRef, useState } from 'react';
import { useHighlighter } from '../../diff/highlighter';
import { buildDiffModel } from '../../diff/model';
import type { ChangedFile } from '../../generated/protocol';
import { useDiffViewMode } from '../../hooks/useDiffViewMode';
import { DiffBody } from '../diff/DiffBody';
import { DiffStats } from '../diff/DiffStats';
import { FilePath } from '../diff/FilePath';
import { ViewToggle } from '../diff/ViewToggle';
import { originLabel } from '../../state/teams';
import { useLoad } from '../../hooks/useLoad';
import { ErrorBanner } from '../common/ErrorBanner';
import { Modal, ModalTitle } from '../dialogs/Modal';
import { KeptWorktrees, type KeptWorktreesProps } from './KeptWorktrees';

export type ChangesViewProps = {
  load: () => Promise<ChangedFile[]>;
  /** The worktrees agents left with changes, and merging or discarding one (shown above the files). */
  worktrees?: KeptWorktreesProps;
  /** The project folder: paths inside it are shown relative to it. */
  root: string;
  onClose: () => void;
};

function relative(path: string, root: string): string {
  const prefix = root.endsWith('/') ? root : `${root}/`;
  return path.startsWith(prefix) ? path.slice(prefix.length) : path;
}

const NO_FILES: ChangedFile[] = [];

export function ChangesView({ load, root, onClose, worktrees }: ChangesViewProps) {
  const changes = useLoad(load);
  const error = changes.error;
  // A failed load shows its error over an empty list.
  const files = changes.data ?? (error ? NO_FILES : null);
  const [selected, setSelected] = useState(0);
  const [view, setView] = useDiffViewMode();
  const closeRef = useRef<HTMLButtonElement>(null);


  const hljs = useHighlighter();
  const models = useMemo(
    () =>
      (files ?? []).map((file) =>
        file.omitted === null
          ? buildDiffModel({ path: file.path, old_text: file.before ?? '', new_text: file.after ?? '', is_new_file: file.before === null }, hljs)
          : null,
      ),
    [files, hljs],
  );
  const file = files?.[selected];
  const model = models[selected] ?? null;

  return (
    <Modal
      className="diff-dialog changes-view"
      backdropClassName="diff-backdrop"
      onEscape={onClose}
      initialFocus={closeRef}
      data-testid="changes-view"
    >
      <header className="diff-dialog-header">
        <ModalTitle className="diff-dialog-title">
          Changes in this session
        </ModalTitle>
        <span className="dim">{files ? `${files.length} ${files.length === 1 ? 'file' : 'files'}` : 'Loading…'}</span>
        <span className="status-spacer" />
        <ViewToggle mode={view} onChange={setView} />
        <button ref={closeRef} type="button" className="button" data-testid="changes-close" onClick={onClose}>
          Close <kbd>Esc</kbd>
        </button>
      </header>
      {error && <ErrorBanner message={error} />}
      {worktrees && <KeptWorktrees load={worktrees.load} settle={worktrees.settle} />}
      <div className="changes-columns">
        <ul className="changes-list" aria-label="Changed files">
          {(files ?? []).map((each, index) => {
            const stats = models[index];
            return (
              <li key={each.path}>
                <button
                  type="button"
                  className={`changes-file${index === selected ? ' is-selected' : ''}`}
                  data-testid="changes-file"
                  data-path={each.path}
                  aria-current={index === selected}
                  onClick={() => setSelected(index)}
                >
                  <FilePath path={relative(each.path, root)} />
                  {each.before === null && <span className="diff-badge">New</span>}
                  {each.after === null && each.omitted === null && <span className="diff-badge">Deleted</span>}
                  {stats && <DiffStats added={stats.added} removed={stats.removed} />}
                  {(each.changed_by ?? []).map((origin) => (
                    <span key={origin.agent_id} className="diff-badge changes-by" data-testid="changes-by" title={originLabel(origin)}>
                      {origin.name ?? origin.agent_type}
                    </span>
                  ))}
                </button>
              </li>
            );
          })}
        </ul>
        <div className="changes-diff">
          {files && files.length === 0 && !error && <p className="dim changes-empty">This session has not changed any file yet.</p>}
          {file && file.omitted !== null && (
            <p className="dim changes-empty" data-testid="changes-omitted">
              {relative(file.path, root)}: {file.omitted}
            </p>
          )}
          {model && <DiffBody key={file?.path} model={model} view={model.isNewFile ? 'unified' : view} className="diff-dialog-body" />}
        </div>
      </div>
    </Modal>
  );
}

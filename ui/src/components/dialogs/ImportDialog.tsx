// File ▸ Import Sessions… / Import from Claude Code: runs the import the menu asked for and shows what it did — the
// sessions that came in (each with the folder it was held in and an Open button), how many were there already, and
// the files and lines that were bad. A cancelled file picker closes it; Esc closes it once the import is over.
import { useCallback, useEffect, useRef } from 'react';
import type { ImportSummary } from '../../generated/app';
import { useLoad } from '../../hooks/useLoad';
import { announceSessionsChanged } from '../../state/sessionsChanged';
import { ErrorBanner } from '../common/ErrorBanner';
import { Modal, ModalTitle } from './Modal';

export type ImportDialogProps = {
  /** Every transcript under the reference agent's projects folder, rather than picked files. */
  claudeCode: boolean;
  /** Runs the import; null when the person cancelled the picker. */
  run: (claudeCode: boolean) => Promise<ImportSummary | null>;
  onOpen: (folder: string, sessionId: string) => void;
  onClose: () => void;
};

export function ImportDialog({ claudeCode, run, onOpen, onClose }: ImportDialogProps) {
  const closeRef = useRef<HTMLButtonElement>(null);
  const load = useCallback(() => run(claudeCode), [run, claudeCode]);
  const { data: summary, error, loading } = useLoad(load);
  const cancelled = !loading && !error && summary === null;
  useEffect(() => {
    if (cancelled) onClose();
  }, [cancelled, onClose]);
  useEffect(() => {
    if (summary && summary.imported.length > 0) announceSessionsChanged();
  }, [summary]);
  if (cancelled) return null;
  return (
    <Modal className="import-dialog" onEscape={loading ? undefined : onClose} initialFocus={closeRef} data-testid="import-dialog">
      <header className="modal-header">
        <ModalTitle className="modal-title">{claudeCode ? 'Import from Claude Code' : 'Import Sessions'}</ModalTitle>
        <span className="status-spacer" />
        <button ref={closeRef} type="button" className="button" data-testid="import-close" disabled={loading} onClick={onClose}>
          Close <kbd>Esc</kbd>
        </button>
      </header>
      {loading && <p className="dim" data-testid="import-working">Importing…</p>}
      {error && <ErrorBanner message={error} />}
      {summary && <ImportReport summary={summary} onOpen={onOpen} />}
    </Modal>
  );
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function ImportReport({ summary, onOpen }: { summary: ImportSummary; onOpen: ImportDialogProps['onOpen'] }) {
  const { imported, already_there: already, problems } = summary;
  return (
    <div className="import-report">
      <p data-testid="import-counts">
        {plural(imported.length, 'session imported', 'sessions imported')}
        {already > 0 && `, ${plural(already, 'was', 'were')} there already`}
        {imported.length === 0 && already === 0 && problems.length === 0 && ': no transcripts were found'}
      </p>
      {imported.length > 0 && (
        <ul className="import-list" data-testid="import-list">
          {imported.map((each) => (
            <li key={each.session_id} className="import-item" data-testid="import-item">
              <span className="import-title">{each.title || '(untitled)'}</span>
              <span className="import-meta dim">
                {each.folder} · {plural(each.messages, 'message', 'messages')}
              </span>
              <button type="button" className="button" data-testid="import-open" onClick={() => onOpen(each.folder, each.session_id)}>
                Open
              </button>
            </li>
          ))}
        </ul>
      )}
      {problems.length > 0 && (
        <section className="import-problems" data-testid="import-problems">
          <h3 className="rules-heading">Not imported, or imported without some lines</h3>
          <ul>
            {problems.map((problem) => (
              <li key={problem}>
                <code>{problem}</code>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

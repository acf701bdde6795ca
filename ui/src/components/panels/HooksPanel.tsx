// The hooks panel: every configured hook grouped by event, with its matcher, command, timeout and the settings file it
// comes from (and whether it is in force: a project's hooks wait for trust). The tester runs one hook for real on an
// input the person edits (prefilled with a sample of the event's stdin) and shows its exit, stdout and stderr and the
// decision it would produce. Esc closes.
import { useRef, useState } from 'react';
import type { HookListing, HookTestResult } from '../../generated/protocol';
import { errorMessage } from '../../ipc';
import { shown } from '../../state/decisionSource';
import { useLoad } from '../../hooks/useLoad';
import { ErrorBanner } from '../common/ErrorBanner';
import { Modal, ModalTitle } from '../dialogs/Modal';

export type HooksPanelProps = {
  load: () => Promise<HookListing[]>;
  test: (event: string, command: string, input: unknown) => Promise<HookTestResult>;
  /** The project folder: settings files inside it are named relative to it. */
  root?: string;
  onClose: () => void;
};

export function HooksPanel({ load, test, root, onClose }: HooksPanelProps) {
  const closeRef = useRef<HTMLButtonElement>(null);
  const listed = useLoad(load);
  const hooks = listed.data;
  const error = listed.error;
  const [chosen, setChosen] = useState<HookListing | null>(null);

  const events = [...new Set((hooks ?? []).map((hook) => hook.event))];
  return (
    <Modal className="hooks-panel" onEscape={onClose} initialFocus={closeRef} data-testid="hooks-panel">
      <header className="modal-header">
        <ModalTitle className="modal-title">
          Hooks
        </ModalTitle>
        <span className="status-spacer" />
        <button ref={closeRef} type="button" className="button" data-testid="hooks-close" onClick={onClose}>
          Close <kbd>Esc</kbd>
        </button>
      </header>
      {error && <ErrorBanner message={error} />}
      {hooks !== null && hooks.length === 0 && (
        <p className="dim" data-testid="hooks-none">
          No hook is configured. Add them under <code>hooks</code> in <code>.claude/settings.json</code> or your user settings.
        </p>
      )}
      {events.map((event) => (
        <section key={event} className="rules-section" data-testid="hooks-event" data-event={event}>
          <h3 className="rules-heading">{event}</h3>
          <ul className="hooks-list">
            {(hooks ?? [])
              .filter((hook) => hook.event === event)
              .map((hook, index) => (
                <li
                  key={`${hook.command}:${hook.source}:${index}`}
                  className={`hook-item${hook.active ? '' : ' hook-inactive'}`}
                  data-testid="hook-item"
                  data-active={hook.active}
                >
                  <code className="hook-command">{hook.command}</code>
                  <span className="dim">
                    {hook.matcher ? ` on ${hook.matcher}` : ''} · {hook.timeout_secs} s · from {shown(hook.source, root)}
                    {hook.active ? '' : ' · not in force (waits for trust or review)'}
                  </span>{' '}
                  <button type="button" className="button" data-testid="hook-try" onClick={() => setChosen(hook)}>
                    Try it
                  </button>
                </li>
              ))}
          </ul>
        </section>
      ))}
      {chosen && <HookTester key={`${chosen.event}:${chosen.command}`} hook={chosen} test={test} />}
    </Modal>
  );
}

function HookTester({ hook, test }: { hook: HookListing; test: HooksPanelProps['test'] }) {
  const [input, setInput] = useState(() => JSON.stringify(hook.sample_input, null, 2));
  const [result, setResult] = useState<HookTestResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const run = () => {
    setError(null);
    let parsed: unknown;
    try {
      parsed = JSON.parse(input);
    } catch (cause) {
      setError(`The input is not JSON: ${errorMessage(cause)}`);
      return;
    }
    setRunning(true);
    test(hook.event, hook.command, parsed)
      .then(setResult, (cause: unknown) => setError(errorMessage(cause)))
      .finally(() => setRunning(false));
  };
  return (
    <section className="rules-section hook-tester" data-testid="hook-tester">
      <h3 className="rules-heading">
        Try <code>{hook.command}</code> ({hook.event})
      </h3>
      <p className="dim">The hook runs for real with this input on stdin, in the project folder, with its timeout.</p>
      <textarea
        className="hook-input"
        aria-label="Hook input (JSON)"
        data-testid="hook-input"
        spellCheck={false}
        rows={10}
        value={input}
        onChange={(event) => setInput(event.target.value)}
      />
      <button type="button" className="button button-primary" data-testid="hook-run" disabled={running} onClick={run}>
        {running ? 'Running…' : 'Run'}
      </button>
      {error && <ErrorBanner message={error} />}
      {result && (
        <div className="hook-result" data-testid="hook-result" data-decision={result.decision ?? 'none'}>
          <p data-testid="hook-outcome">
            {result.outcome}
            {result.decision && (
              <>
                {' '}
                · would <span className={`rules-behavior behavior-${result.decision}`}>{result.decision}</span>
              </>
            )}
            {result.reason && <> — {result.reason}</>}
            {result.block && <> · blocks: {result.block}</>}
            {!result.decision && !result.block && ' · no decision'}
          </p>
          {result.errors.map((message) => (
            <p key={message} className="rules-problem">
              {message}
            </p>
          ))}
          <div className="tool-section-label">stdout</div>
          <pre className="hook-output" data-testid="hook-stdout">
            {result.stdout || '(empty)'}
          </pre>
          <div className="tool-section-label">stderr</div>
          <pre className="hook-output" data-testid="hook-stderr">
            {result.stderr || '(empty)'}
          </pre>
        </div>
      )}
    </section>
  );
}

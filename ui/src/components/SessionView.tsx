// The window with an open session: header, sessions sidebar, setup hint, transcript, prompt box,
// status bar, and
// the approval dialog for the first pending request (the diff dialog when it changes a file).
// Esc stops a running turn.
import { useCallback, useEffect, useState } from 'react';
import type { ApprovalAnswer } from '../generated/protocol';
import type { SessionControls } from '../hooks/useSession';
import { useSessionList } from '../hooks/useSessionList';
import type { Session } from '../state/session';
import { ApprovalDialog } from './ApprovalDialog';
import { DiffDialog } from './DiffDialog';
import { ErrorBanner } from './ErrorBanner';
import { Header } from './Header';
import { PromptBox } from './PromptBox';
import { SessionSidebar } from './SessionSidebar';
import { SetupHint } from './SetupHint';
import { StatusBar } from './StatusBar';
import { Transcript } from './Transcript';

export type SessionViewProps = {
  session: Session;
  controls: SessionControls;
  onPickFolder: () => void;
};

export function SessionView({ session, controls, onPickFolder }: SessionViewProps) {
  const { info, mode, transcript } = session;
  const { running, approvals } = transcript;
  const { interrupt, answer, sendPrompt, setMode, error, clearError, open } = controls;
  const list = useSessionList(info.cwd, info.session_id, running);
  // Answered requests hide at once, before the engine's approval_resolved arrives.
  const [answered, setAnswered] = useState<ReadonlySet<string>>(new Set());
  const pending = approvals.find((request) => !answered.has(request.id));

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && running && !event.defaultPrevented) {
        event.preventDefault();
        void interrupt();
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [running, interrupt]);

  const onAnswer = useCallback(
    async (value: ApprovalAnswer) => {
      const sent = await answer(value);
      if (sent) setAnswered((previous) => new Set(previous).add(value.request_id));
      return sent;
    },
    [answer],
  );

  return (
    <div className="session" data-testid="session" data-session-id={info.session_id}>
      <div className="session-body" inert={pending !== undefined}>
        <Header folderName={info.folder_name} path={info.cwd} onOpenFolder={onPickFolder} />
        <div className="session-columns">
          <SessionSidebar
            sessions={list.sessions}
            currentId={info.session_id}
            error={list.error}
            onOpen={(id) => void open(info.cwd, id)}
            onNew={() => void open(info.cwd)}
          />
          <div className="session-center">
            {info.setup_hint && <SetupHint hint={info.setup_hint} />}
            <main className="session-main">
              <Transcript
                items={transcript.items}
                empty={<EmptyTranscript folder={info.folder_name} />}
                footer={running ? <WorkingLine /> : null}
              />
            </main>
            <div className="composer">
              {error && !pending && <ErrorBanner message={error} onDismiss={clearError} />}
              <PromptBox disabled={running} onSend={sendPrompt} />
            </div>
          </div>
        </div>
        <StatusBar
          mode={mode}
          onModeChange={(next) => void setMode(next)}
          model={info.model}
          usage={transcript.usage}
          running={running}
          onStop={() => void interrupt()}
        />
      </div>
      {pending?.diff ? (
        <DiffDialog key={pending.id} request={pending} diff={pending.diff} onAnswer={onAnswer} error={error} />
      ) : (
        pending && <ApprovalDialog key={pending.id} request={pending} onAnswer={onAnswer} error={error} />
      )}
    </div>
  );
}

function EmptyTranscript({ folder }: { folder: string }) {
  return (
    <div className="transcript-empty">
      <p className="transcript-empty-title">What should we do in {folder}?</p>
      <p className="dim">
        The agent reads, searches and edits files here and runs commands; it asks before anything you have not allowed.
      </p>
    </div>
  );
}

/** Shown at the end of the transcript while a turn runs, with the seconds since it started. */
function WorkingLine() {
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    const started = Date.now();
    const timer = setInterval(() => setSeconds(Math.floor((Date.now() - started) / 1000)), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <div className="working-line" data-testid="working">
      <span className="spinner" aria-hidden="true" />
      Working…
      {seconds > 0 && <span className="dim">{seconds} s · Esc to stop</span>}
    </div>
  );
}

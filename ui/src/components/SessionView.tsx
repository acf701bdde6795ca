// The window with an open session: header, sessions sidebar, setup hint, transcript, prompt box,
// status bar, and
// the approval dialog for the first pending request (the diff dialog when it changes a file).
// Esc stops a running turn; Ctrl+B moves its running shell commands to the background. A prompt row's rewind action opens the rewind dialog; after a rewind a
// notice says what happened, and a rewound prompt goes back into the prompt box to edit and resend.
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ApprovalAnswer, RewindOutcome, RewindScope, SandboxViolation } from '../generated/protocol';
import type { SessionControls } from '../hooks/useSession';
import { useSessionList } from '../hooks/useSessionList';
import { describeRewind, promptItems, RewindContext } from '../state/rewind';
import { StopSubAgentContext } from '../state/subAgentStop';
import { ShellControlsContext, type ShellControls } from '../state/shells';
import { TeamsContext } from '../state/teams';
import { SandboxAllowContext } from '../state/sandbox';
import type { Session } from '../state/session';
import type { DecisionBehavior, ElicitationAnswer, PermissionMode, PlanAnswer, QuestionAnswer, RuleScope } from '../generated/protocol';
import * as ipc from '../ipc';
import { ApprovalDialog } from './ApprovalDialog';
import { BypassConfirm } from './BypassConfirm';
import { ChangesView } from './ChangesView';
import { McpPanel } from './McpPanel';
import { HooksPanel } from './HooksPanel';
import { RulesPanel } from './RulesPanel';
import { pastCalls } from '../state/rulesPanel';
import { BackgroundAgents } from './BackgroundAgents';
import { BackgroundShells } from './BackgroundShells';
import { Checklist } from './Checklist';
import { TeamPanel } from './TeamPanel';
import { PlanDialog } from './PlanDialog';
import { QuestionDialog } from './QuestionDialog';
import { ElicitationDialog } from './ElicitationDialog';
import { DiffDialog } from './DiffDialog';
import { ErrorBanner } from './ErrorBanner';
import { Header } from './Header';
import { PromptBox, type SlashCommand } from './PromptBox';
import { RewindDialog } from './RewindDialog';
import { SessionSidebar } from './SessionSidebar';
import { SetupHint } from './SetupHint';
import { StatusBar } from './StatusBar';
import { Transcript } from './Transcript';
import { TrustDialog } from './TrustDialog';
import { asksForTrust, postponeTrust } from '../state/trust';
import { switchableModes } from '../state/modes';
import { Icon } from './Icon';

export type SessionViewProps = {
  session: Session;
  controls: SessionControls;
  onPickFolder: () => void;
  /** Opens the settings dialog. */
  onOpenSettings?: () => void;
};

export function SessionView({ session, controls, onPickFolder, onOpenSettings }: SessionViewProps) {
  const { info, mode, transcript } = session;
  const { running, approvals, planReviews, questions, forms } = transcript;
  const { interrupt, answer, sendPrompt, setMode, error, clearError, open, rewindPoints, rewind, setTrust, changes } = controls;
  const promptCount = useMemo(() => promptItems(transcript.items).length, [transcript.items]);
  const list = useSessionList(info.cwd, info.session_id, running, transcript.turnsEnded, promptCount);
  // Answered requests hide at once, before the engine's approval_resolved arrives.
  const [answered, setAnswered] = useState<ReadonlySet<string>>(new Set());
  const pending = approvals.find((request) => !answered.has(request.id));
  const planReview = pending ? undefined : planReviews.find((request) => !answered.has(request.id));
  const question = pending || planReview ? undefined : questions.find((request) => !answered.has(request.id));
  const form = pending || planReview || question ? undefined : forms.find((request) => !answered.has(request.id));
  const markAnswered = useCallback((id: string) => setAnswered((previous) => new Set(previous).add(id)), []);
  const onPlanAnswer = useCallback(
    async (value: PlanAnswer) => {
      await ipc.answerPlan(value);
      markAnswered(value.request_id);
    },
    [markAnswered],
  );
  const onQuestionAnswer = useCallback(
    async (value: QuestionAnswer) => {
      await ipc.answerQuestions(value);
      markAnswered(value.request_id);
    },
    [markAnswered],
  );
  const onFormAnswer = useCallback(
    async (value: ElicitationAnswer) => {
      await ipc.answerElicitation(value);
      markAnswered(value.request_id);
    },
    [markAnswered],
  );
  const [stopError, setStopError] = useState<string | null>(null);
  const stopSubAgent = useCallback(
    (id: string) => {
      ipc.stopSubAgent(info.session_id, id).then(
        () => setStopError(null),
        (reason: unknown) => setStopError(`The sub-agent could not be stopped: ${ipc.errorMessage(reason)}`),
      );
    },
    [info.session_id],
  );
  const shellControls = useMemo<ShellControls>(
    () => ({
      toBackground: (toolUseId) => {
        ipc.sendToBackground(info.session_id, toolUseId).then(
          () => setStopError(null),
          (reason: unknown) => setStopError(`The command could not be moved to the background: ${ipc.errorMessage(reason)}`),
        );
      },
      output: (taskId) => ipc.backgroundShellOutput(info.session_id, taskId),
      stop: (taskId) => {
        ipc.stopBackgroundShell(info.session_id, taskId).then(
          () => setStopError(null),
          (reason: unknown) => setStopError(`The background shell could not be stopped: ${ipc.errorMessage(reason)}`),
        );
      },
    }),
    [info.session_id],
  );
  const asking = pending !== undefined || planReview !== undefined || question !== undefined || form !== undefined;
  /** The prompt row being rewound: its place among the prompt rows and its text. */
  const [rewinding, setRewinding] = useState<{ ordinal: number; text: string; promptId?: string } | null>(null);
  const [rewindNotice, setRewindNotice] = useState<string | null>(null);
  /** Text put back into the prompt box; a new `nonce` remounts the box with it. */
  const [draft, setDraft] = useState({ text: '', nonce: 0 });
  /** A prompt typed while a turn runs: sent when the turn ends (more prompts join it), or taken back. */
  const [queued, setQueued] = useState<string | null>(null);
  /** The trust dialog: asked at once for an untrusted folder whose settings grant something (unless put off), else
   * opened from the status bar. */
  const [trustOpen, setTrustOpen] = useState(() => asksForTrust(info.cwd, info.trust));
  const closeTrust = useCallback(() => {
    if (!info.trust.trusted) postponeTrust(info.cwd);
    setTrustOpen(false);
  }, [info.trust.trusted, info.cwd]);
  const showTrust = trustOpen && !asking && rewinding === null;
  /** Bypass mode is confirmed once per session. */
  const [bypassConfirmed, setBypassConfirmed] = useState(false);
  const [confirmingBypass, setConfirmingBypass] = useState(false);
  const changeMode = useCallback(
    (next: PermissionMode) => {
      if (next === 'bypassPermissions' && !bypassConfirmed) setConfirmingBypass(true);
      else void setMode(next);
    },
    [bypassConfirmed, setMode],
  );
  const confirmBypass = useCallback(() => {
    setBypassConfirmed(true);
    setConfirmingBypass(false);
    void setMode('bypassPermissions');
  }, [setMode]);
  const cancelBypass = useCallback(() => setConfirmingBypass(false), []);
  const showBypassConfirm = confirmingBypass && !asking && !showTrust;
  const [changesOpen, setChangesOpen] = useState(false);
  const closeChanges = useCallback(() => setChangesOpen(false), []);
  const showChanges = changesOpen && !asking && !showTrust && !showBypassConfirm;
  const [mcpOpen, setMcpOpen] = useState(false);
  /** The rules or hooks panel, when open. */
  const [panel, setPanel] = useState<'rules' | 'hooks' | null>(null);
  // The window's own slash commands, then the session's (the engine's own, custom commands, skills and its
  // MCP servers' prompts, which the engine runs); listed again whenever a server changes.
  const [sessionCommands, setSessionCommands] = useState<SlashCommand[]>([]);
  const mcpVersion = Object.values(transcript.mcpServers)
    .map((server) => `${server.name}:${server.state.state}:${server.tools.length}:${server.disabled_tools.length}`)
    .join(',');
  useEffect(() => {
    let current = true;
    ipc.slashCommands(info.session_id).then(
      (list) => current && setSessionCommands(list),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [info.session_id, mcpVersion]);
  const windowCommands: Record<string, { description: string; run: () => void }> = {
    clear: { description: 'Start a new session in this folder', run: () => void open(info.cwd) },
    changes: { description: 'Show every file this session changed', run: () => setChangesOpen(true) },
    mcp: { description: 'Show the MCP servers', run: () => setMcpOpen(true) },
    rules: { description: 'Show and edit the permission rules', run: () => setPanel('rules') },
    hooks: { description: 'Show and try the hooks', run: () => setPanel('hooks') },
    trust: { description: "Review this folder's trust", run: () => setTrustOpen(true) },
    rewind: { description: 'Rewind the conversation or files to before the last prompt', run: () => rewindLast() },
  };
  const slashCommands: SlashCommand[] = [
    ...Object.entries(windowCommands).map(([name, command]) => ({
      name,
      description: command.description,
      argument_hint: null,
      source: 'window' as const,
    })),
    ...sessionCommands.filter((command) => !(command.name in windowCommands)),
  ];
  const completeMentions = useCallback((query: string) => ipc.completeMention(info.session_id, query), [info.session_id]);
  const onPrompt = async (prompt: string): Promise<boolean> => {
    const own = /^\/(\w+)\s*$/.exec(prompt);
    const command = own?.[1] ? windowCommands[own[1]] : undefined;
    if (command) {
      command.run();
      return true;
    }
    if (running) {
      setQueued((previous) => (previous ? `${previous}\n\n${prompt}` : prompt));
      return true;
    }
    return sendPrompt(prompt);
  };
  // The queued prompt goes out when the turn ends (noticed while rendering, sent by the effect below);
  // if it is refused, its text returns to the box.
  const [wasRunning, setWasRunning] = useState(running);
  const [release, setRelease] = useState<{ text: string } | null>(null);
  if (wasRunning !== running) {
    setWasRunning(running);
    if (!running && queued !== null) {
      setRelease({ text: queued });
      setQueued(null);
    }
  }
  useEffect(() => {
    if (!release) return;
    void sendPrompt(release.text).then((sent) => {
      if (!sent) setDraft((previous) => ({ text: release.text, nonce: previous.nonce + 1 }));
    });
  }, [release, sendPrompt]);
  const unqueue = () => {
    if (queued === null) return;
    setDraft((previous) => ({ text: queued, nonce: previous.nonce + 1 }));
    setQueued(null);
  };
  const closeMcp = useCallback(() => setMcpOpen(false), []);
  const showMcp = mcpOpen && !asking && !showTrust && !showBypassConfirm && !showChanges;
  const sessionId = info.session_id;
  const loadMcp = useCallback(() => ipc.mcpServers(sessionId), [sessionId]);
  const approveMcp = useCallback((name: string, approved: boolean) => ipc.approveMcpServer(sessionId, name, approved), [sessionId]);
  const allowSandbox = useCallback(
    (violation: SandboxViolation) => ipc.allowSandboxViolation(sessionId, violation),
    [sessionId],
  );
  const reconnectMcp = useCallback((name: string) => ipc.reconnectMcpServer(sessionId, name), [sessionId]);
  const signInMcp = useCallback((name: string) => ipc.signInMcpServer(sessionId, name), [sessionId]);
  const toggleMcpTool = useCallback((tool: string, enabled: boolean) => ipc.setMcpToolEnabled(sessionId, tool, enabled), [sessionId]);
  const closePanel = useCallback(() => setPanel(null), []);
  const showPanel = !asking && !showTrust && !showBypassConfirm && !showChanges && !showMcp ? panel : null;
  const loadRules = useCallback(() => ipc.rulesView(sessionId), [sessionId]);
  const addRule = useCallback(
    (scope: RuleScope, behavior: DecisionBehavior, rule: string) => ipc.addRule(sessionId, scope, behavior, rule),
    [sessionId],
  );
  const removeRule = useCallback(
    (scope: RuleScope, behavior: DecisionBehavior, rule: string) => ipc.removeRule(sessionId, scope, behavior, rule),
    [sessionId],
  );
  const moveRule = useCallback(
    (from: RuleScope, to: RuleScope, behavior: DecisionBehavior, rule: string) => ipc.moveRule(sessionId, from, to, behavior, rule),
    [sessionId],
  );
  const checkCall = useCallback((tool: string, input: unknown) => ipc.checkCall(sessionId, tool, input), [sessionId]);
  const revokeFromPanel = useCallback(() => setTrust(false), [setTrust]);
  const loadHooks = useCallback(() => ipc.hooksView(sessionId), [sessionId]);
  const testHook = useCallback(
    (event: string, command: string, input: unknown) => ipc.testHook(sessionId, event, command, input),
    [sessionId],
  );
  const loadWorktrees = useCallback(() => ipc.keptWorktrees(sessionId), [sessionId]);
  const settleWorktree = useCallback((branch: string, merge: boolean) => ipc.settleWorktree(sessionId, branch, merge), [sessionId]);

  const onRewindRequest = useCallback(
    (itemKey: string) => {
      const prompts = promptItems(transcript.items);
      const ordinal = prompts.findIndex((item) => item.key === itemKey);
      const item = prompts[ordinal];
      if (item) setRewinding({ ordinal, text: item.text, promptId: item.promptId });
    },
    [transcript.items],
  );
  // `/rewind`: the dialog for the latest prompt (each prompt row offers its own).
  const rewindLast = () => {
    const prompts = promptItems(transcript.items);
    const last = prompts[prompts.length - 1];
    if (running) setRewindNotice('Stop the running turn (Esc) before rewinding.');
    else if (last) onRewindRequest(last.key);
    else setRewindNotice('There is no prompt to rewind to yet.');
  };
  const onRewound = useCallback(
    (outcome: RewindOutcome, scope: RewindScope) => {
      setRewindNotice(describeRewind(outcome, scope));
      if (scope !== 'files' && rewinding) setDraft((previous) => ({ text: rewinding.text, nonce: previous.nonce + 1 }));
      setRewinding(null);
    },
    [rewinding],
  );
  const closeRewind = useCallback(() => setRewinding(null), []);

  // A turn that failed can be tried again: its prompt is rewound away and sent anew, so the model
  // sees it once.
  const failedPrompt =
    !running && transcript.lastStopReason === 'error' ? promptItems(transcript.items).at(-1) ?? null : null;
  const [retrying, setRetrying] = useState(false);
  const retry = useCallback(async () => {
    if (!failedPrompt?.promptId) return;
    setRetrying(true);
    try {
      const ordinal = promptItems(transcript.items).length - 1;
      await rewind(failedPrompt.promptId, ordinal, 'conversation', false);
      await sendPrompt(failedPrompt.text);
    } catch (cause) {
      setRewindNotice(`The turn could not be retried: ${ipc.errorMessage(cause)}`);
    } finally {
      setRetrying(false);
    }
  }, [failedPrompt, transcript.items, rewind, sendPrompt]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && running && !event.defaultPrevented) {
        event.preventDefault();
        void interrupt();
      }
      // By `code` too: some keyboards and webviews report another `key` for Ctrl+B.
      const ctrlB = event.ctrlKey && !event.altKey && !event.metaKey && (event.key.toLowerCase() === 'b' || event.code === 'KeyB');
      if (ctrlB && running && !event.defaultPrevented) {
        event.preventDefault();
        shellControls.toBackground(null);
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [running, interrupt, shellControls]);

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
      <div className="session-body" inert={asking || rewinding !== null || showTrust || showBypassConfirm || showChanges || showMcp || showPanel !== null}>
        <Header folderName={info.folder_name} path={info.cwd} onOpenFolder={onPickFolder} />
        <StopSubAgentContext.Provider value={stopSubAgent}>
          <ShellControlsContext.Provider value={shellControls}>
          <TeamsContext.Provider value={transcript.teams}>
        <div className="session-columns">
          <SessionSidebar
            sessions={list.sessions}
            currentId={info.session_id}
            error={list.error}
            onOpen={(id) => void open(info.cwd, id)}
            onNew={() => void open(info.cwd)}
            onRename={async (id, title) => {
              await ipc.renameSession(id, title);
              list.refresh();
            }}
            onDelete={async (id) => {
              await ipc.deleteSession(id);
              list.refresh();
            }}
          />
          <div className="session-center">
            {info.setup_hint && <SetupHint hint={info.setup_hint} />}
            <main className="session-main">
              <RewindContext.Provider value={running ? null : onRewindRequest}>
                <SandboxAllowContext.Provider value={allowSandbox}>
                  <Transcript
                    items={transcript.items}
                    empty={<EmptyTranscript folder={info.folder_name} />}
                    footer={running ? <WorkingLine /> : null}
                  />
                </SandboxAllowContext.Provider>
              </RewindContext.Provider>
            </main>
            <div className="composer">
              {error && !pending && <ErrorBanner message={error} onDismiss={clearError} />}
              {failedPrompt?.promptId !== undefined && (
                <div className="notice retry-notice" data-testid="retry-notice" role="status">
                  <span>The last turn failed.</span>
                  <button
                    type="button"
                    className="button"
                    data-testid="retry-button"
                    disabled={retrying}
                    onClick={() => void retry()}
                  >
                    Retry
                  </button>
                </div>
              )}
              {rewindNotice && (
                <div className="notice rewind-notice" data-testid="rewind-notice" role="status">
                  <span className="notice-mark" aria-hidden="true">
                    <Icon name="rewind" />
                  </span>
                  <span>{rewindNotice}</span>
                  <button
                    type="button"
                    className="button button-ghost rewind-notice-dismiss"
                    aria-label="Dismiss"
                    onClick={() => setRewindNotice(null)}
                  >
                    ×
                  </button>
                </div>
              )}
              {stopError && <ErrorBanner message={stopError} onDismiss={() => setStopError(null)} />}
              <TeamPanel teams={transcript.teams} />
              <BackgroundAgents agents={transcript.backgroundAgents} />
              <BackgroundShells shells={transcript.backgroundShells} />
              <Checklist todos={transcript.todos} tasks={transcript.tasks} />
              {queued !== null && (
                <div className="notice queued-prompt" data-testid="queued-prompt" role="status">
                  <span className="queued-label">Sends when this turn ends:</span>
                  <span className="queued-text">{queued}</span>
                  <button type="button" className="button" data-testid="queued-edit" onClick={unqueue}>
                    Edit
                  </button>
                </div>
              )}
              <PromptBox
                key={draft.nonce}
                initialText={draft.text}
                draftKey={info.session_id}
                busy={running}
                disabled={false}
                onSend={onPrompt}
                commands={slashCommands}
                completeMentions={completeMentions}
              />
            </div>
          </div>
        </div>
          </TeamsContext.Provider>
          </ShellControlsContext.Provider>
        </StopSubAgentContext.Provider>
        <StatusBar
          mode={mode}
          modes={switchableModes(info.auto_mode_available)}
          onModeChange={changeMode}
          model={info.model}
          usage={transcript.usage}
          running={running}
          onStop={() => void interrupt()}
          trusted={info.trust.trusted}
          onTrustClick={() => setTrustOpen(true)}
          onChangesClick={() => setChangesOpen(true)}
          mcpServers={transcript.mcpServers}
          onMcpClick={() => setMcpOpen(true)}
          onRulesClick={() => setPanel('rules')}
          onHooksClick={() => setPanel('hooks')}
          onSettingsClick={onOpenSettings}
          contextWindow={info.context_window}
          compactAtPercent={info.compact_at_percent}
        />
      </div>
      {pending?.diff ? (
        <DiffDialog
          key={pending.id}
          request={pending}
          diff={pending.diff}
          onAnswer={onAnswer}
          error={error}
          root={info.cwd}
        />
      ) : (
        pending && (
          <ApprovalDialog key={pending.id} request={pending} onAnswer={onAnswer} error={error} root={info.cwd} />
        )
      )}
      {planReview && <PlanDialog key={planReview.id} request={planReview} onAnswer={onPlanAnswer} />}
      {question && <QuestionDialog key={question.id} request={question} onAnswer={onQuestionAnswer} />}
      {form && <ElicitationDialog key={form.id} request={form} onAnswer={onFormAnswer} />}
      {showMcp && (
        <McpPanel live={transcript.mcpServers} load={loadMcp} approve={approveMcp} reconnect={reconnectMcp} signIn={signInMcp} toggleTool={toggleMcpTool} onClose={closeMcp} />
      )}
      {showPanel === 'rules' && (
        <RulesPanel
          load={loadRules}
          add={addRule}
          remove={removeRule}
          move={moveRule}
          check={checkCall}
          revokeTrust={revokeFromPanel}
          calls={pastCalls(transcript.items)}
          root={info.cwd}
          onClose={closePanel}
        />
      )}
      {showPanel === 'hooks' && <HooksPanel load={loadHooks} test={testHook} root={info.cwd} onClose={closePanel} />}
      {showChanges && (
        <ChangesView load={changes} root={info.cwd} onClose={closeChanges} worktrees={{ load: loadWorktrees, settle: settleWorktree }} />
      )}
      {showBypassConfirm && <BypassConfirm current={mode} onConfirm={confirmBypass} onCancel={cancelBypass} />}
      {showTrust && (
        <TrustDialog folderName={info.folder_name} trust={info.trust} onChange={setTrust} onClose={closeTrust} />
      )}
      {rewinding && !asking && (
        <RewindDialog
          ordinal={rewinding.ordinal}
          text={rewinding.text}
          promptId={rewinding.promptId}
          loadPoints={rewindPoints}
          rewind={(promptId, scope, force) => rewind(promptId, rewinding.ordinal, scope, force)}
          onRewound={onRewound}
          fork={async (promptId) => {
            const forked = await ipc.forkSession(info.session_id, promptId);
            await open(info.cwd, forked);
          }}
          onCancel={closeRewind}
        />
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

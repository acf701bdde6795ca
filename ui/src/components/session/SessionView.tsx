// One open session (a tab of the window): header, sessions sidebar, setup hint, transcript, the composer (notices,
// the background lists, the prompt box) and the status bar; above them the request waiting on the person, the rewind
// dialog (a prompt row's rewind action, or `/rewind`) or one of the session's dialogs and panels, with everything
// behind inert meanwhile. Esc stops a running turn; Ctrl+B moves its running shell commands to the background.
// Ctrl+` (or View > Terminal Panel) shows or hides the terminal panel at the bottom (TERMINAL_PANEL).
// The state lives in hooks (hooks/session/): the requests' queue, the overlays, rewinding, the queued prompt. A
// session whose tab is hidden stays mounted — its events fold, its queued prompt is sent at its turn's end, its
// notifications are asked for — but shows no dialog and takes no key: its dialogs show when its tab is shown.
import { useCallback, useMemo } from 'react';
import type { PromptImage, SandboxViolation } from '../../generated/protocol';
import type { SessionMark } from '../../state/openSessions';
import { ShownTabContext } from '../../state/shownTab';
import { useAwayNotifications } from '../../hooks/session/useAwayNotifications';
import { usePushNotifications } from '../../hooks/session/usePushNotifications';
import { useBackgroundControls } from '../../hooks/session/useBackgroundControls';
import { useBudgets } from '../../hooks/session/useBudgets';
import { useDraft } from '../../hooks/session/useDraft';
import { useOverlays } from '../../hooks/session/useOverlays';
import { usePromptQueue } from '../../hooks/session/usePromptQueue';
import { useRequestQueue } from '../../hooks/session/useRequestQueue';
import { useRewinding } from '../../hooks/session/useRewinding';
import { useSessionKeys } from '../../hooks/session/useSessionKeys';
import { useTerminalPanel } from '../../hooks/session/useTerminalPanel';
import { useSlashCommands, type WindowCommand } from '../../hooks/session/useSlashCommands';
import type { SessionControls } from '../../hooks/useSession';
import { useOrganise } from '../../hooks/useOrganise';
import { useSessionList } from '../../hooks/useSessionList';
import * as ipc from '../../ipc';
import { waitingOf } from '../../state/awayNotice';
import { budgetStopNotice } from '../../state/budget';
import { switchableModes } from '../../state/modes';
import { promptItems, RewindContext } from '../../state/rewind';
import { SandboxAllowContext } from '../../state/sandbox';
import type { Session } from '../../state/session';
import { ShellControlsContext } from '../../state/shells';
import { StopSubAgentContext } from '../../state/subAgentStop';
import { TeamsContext } from '../../state/teams';
import { UserFileContext, type OpenUserFile } from '../../state/userFiles';
import { RewindDialog } from '../dialogs/RewindDialog';
import { SessionSidebar } from '../sidebar/SessionSidebar';
import { StatusBar } from '../statusbar/StatusBar';
import { EmptyTranscript } from '../transcript/EmptyTranscript';
import { Transcript } from '../transcript/Transcript';
import { WorkingLine } from '../transcript/WorkingLine';
import { TerminalPanel } from '../terminal/TerminalPanel';
import { Composer } from './Composer';
import { Header } from './Header';
import { RequestDialog } from './RequestDialog';
import { SessionOverlay } from './SessionOverlay';
import { SetupHint } from './SetupHint';
import { UnreadableSettingsNotice } from './UnreadableSettingsNotice';

export type SessionViewProps = {
  session: Session;
  controls: SessionControls;
  /** Whether its tab is the one shown (true when absent). */
  shown?: boolean;
  /** The marks of the sessions open in tabs, by id (the sidebar marks those that run or wait). */
  openMarks?: ReadonlyMap<string, SessionMark>;
  /** How many turns the sessions of this folder open in other tabs have ended (their sidebar rows change then). */
  folderTurns?: number;
  onPickFolder: () => void;
  /** Opens the settings dialog. */
  onOpenSettings?: () => void;
  /** Whether desktop notifications tell the person, while the window is not focused, what waits for them. */
  notifications?: boolean;
  /** The event of this session a search hit opened: the transcript scrolls to it once it has arrived. */
  focusSeq?: number | null;
  /** The transcript showed `focusSeq`. */
  onFocused?: () => void;
  /** How many times the settings were saved (the budgets are counted again). */
  settingsSaves?: number;
};

export function SessionView({
  session,
  controls,
  shown = true,
  openMarks,
  folderTurns = 0,
  onPickFolder,
  onOpenSettings,
  notifications = true,
  focusSeq = null,
  onFocused,
  settingsSaves = 0,
}: SessionViewProps) {
  const { info, mode, transcript } = session;
  const { running } = transcript;
  const { interrupt, sendPrompt, open, rewind, clear } = controls;
  const sessionId = info.session_id;
  const promptCount = useMemo(() => promptItems(transcript.items).length, [transcript.items]);
  const list = useSessionList(info.cwd, sessionId, running, transcript.turnsEnded, promptCount, folderTurns);
  const organise = useOrganise(info.cwd, list.refresh);
  const requests = useRequestQueue(transcript, controls.answer);
  useAwayNotifications(
    { sessionId, waiting: waitingOf(requests), turnsEnded: transcript.turnsEnded },
    { enabled: notifications, where: info.folder_name },
  );
  usePushNotifications(sessionId, transcript, notifications);
  const openUserFile = useCallback<OpenUserFile>(
    (path, reveal) => ipc.openUserFile(sessionId, path, reveal).then(() => null, ipc.errorMessage),
    [sessionId],
  );
  const background = useBackgroundControls(sessionId);
  const { draft, putBack } = useDraft();
  const queue = usePromptQueue(running, sendPrompt, putBack);
  const rewinds = useRewinding(transcript, rewind, sendPrompt, putBack);
  const overlays = useOverlays(info, { asking: requests.asking, rewinding: rewinds.rewinding !== null }, controls.setMode);
  const budgets = useBudgets(transcript, settingsSaves);
  const stop = useCallback(() => void interrupt(), [interrupt]);
  const { toBackground } = background.shellControls;
  const allToBackground = useCallback(() => toBackground(null), [toBackground]);
  useSessionKeys(shown && running, stop, allToBackground);
  const terminal = useTerminalPanel(shown);

  const { open: openOverlay } = overlays;
  const { rewindLast } = rewinds;
  const windowCommands = useMemo<Record<string, WindowCommand>>(
    () => ({
      clear: { description: 'Start a new session in this folder, in this tab', run: () => void clear() },
      changes: { description: 'Show every file this session changed', run: () => openOverlay('changes') },
      mcp: { description: 'Show the MCP servers', run: () => openOverlay('mcp') },
      rules: { description: 'Show and edit the permission rules', run: () => openOverlay('rules') },
      hooks: { description: 'Show and try the hooks', run: () => openOverlay('hooks') },
      plugins: { description: 'Show the installed plugins and turn them on or off', run: () => openOverlay('plugins') },
      usage: { description: 'Show what the sessions cost: by day, folder, model and tool call, and the budgets', run: () => openOverlay('usage') },
      trust: { description: "Review this folder's trust", run: () => openOverlay('trust') },
      rewind: { description: 'Rewind the conversation or files to before the last prompt', run: rewindLast },
    }),
    [clear, openOverlay, rewindLast],
  );
  const commands = useSlashCommands(sessionId, transcript.mcpServers, windowCommands);
  const completeMentions = useCallback((query: string) => ipc.completeMention(sessionId, query), [sessionId]);
  // The window runs its own commands; a prompt sent while a turn runs waits for its end.
  const onPrompt = async (prompt: string, images: PromptImage[] = []): Promise<boolean> => {
    const own = /^\/(\w+)\s*$/.exec(prompt);
    const command = own?.[1] && images.length === 0 ? windowCommands[own[1]] : undefined;
    if (command) {
      command.run();
      return true;
    }
    if (running) {
      queue.enqueue(prompt, images);
      return true;
    }
    return sendPrompt(prompt, images);
  };
  const allowSandbox = useCallback(
    (violation: SandboxViolation) => ipc.allowSandboxViolation(sessionId, violation),
    [sessionId],
  );
  const { rewinding } = rewinds;
  const inert = requests.asking || rewinding !== null || overlays.shown !== null;

  return (
    <ShownTabContext.Provider value={shown}>
    <div className="session" data-testid="session" data-session-id={sessionId} data-shown={shown ? 'true' : 'false'}>
      <div className="session-body" inert={inert}>
        <Header folderName={info.folder_name} path={info.cwd} onOpenFolder={onPickFolder} />
        <StopSubAgentContext.Provider value={background.stopSubAgent}>
          <ShellControlsContext.Provider value={background.shellControls}>
            <TeamsContext.Provider value={transcript.teams}>
              <UserFileContext.Provider value={openUserFile}>
              <div className="session-columns">
                <SessionSidebar
                  sessions={list.sessions}
                  currentId={sessionId}
                  openMarks={openMarks}
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
                  collections={list.collections}
                  organise={organise}
                  onExport={ipc.exportSession}
                />
                <div className="session-center">
                  {info.setup_hint && <SetupHint hint={info.setup_hint} />}
                  <UnreadableSettingsNotice sessionId={info.session_id} files={transcript.unreadableSettings} root={info.cwd} />
                  <main className="session-main">
                    <RewindContext.Provider value={running ? null : rewinds.request}>
                      <SandboxAllowContext.Provider value={allowSandbox}>
                        <Transcript
                          items={transcript.items}
                          empty={<EmptyTranscript folder={info.folder_name} />}
                          footer={running ? <WorkingLine /> : null}
                          focusSeq={focusSeq !== null && transcript.lastSeq >= focusSeq ? focusSeq : null}
                          onFocused={onFocused}
                        />
                      </SandboxAllowContext.Provider>
                    </RewindContext.Provider>
                  </main>
                  <Composer
                    transcript={transcript}
                    error={requests.approval ? null : controls.error}
                    onDismissError={controls.clearError}
                    backgroundError={background.error}
                    onDismissBackgroundError={background.clearError}
                    rewinds={rewinds}
                    queue={queue}
                    draft={draft}
                    draftKey={sessionId}
                    onSend={onPrompt}
                    commands={commands}
                    completeMentions={completeMentions}
                  />
                  {terminal.open && (
                    <TerminalPanel sessionId={sessionId} available={info.terminal_panel} onHide={terminal.hide} />
                  )}
                </div>
              </div>
              </UserFileContext.Provider>
            </TeamsContext.Provider>
          </ShellControlsContext.Provider>
        </StopSubAgentContext.Provider>
        <StatusBar
          mode={mode}
          modes={switchableModes(info.auto_mode_available)}
          onModeChange={overlays.changeMode}
          model={info.model}
          usage={transcript.usage}
          running={running}
          onStop={stop}
          trusted={info.trust.trusted}
          onTrustClick={() => openOverlay('trust')}
          onChangesClick={() => openOverlay('changes')}
          mcpServers={transcript.mcpServers}
          onMcpClick={() => openOverlay('mcp')}
          onRulesClick={() => openOverlay('rules')}
          onHooksClick={() => openOverlay('hooks')}
          onPluginsClick={() => openOverlay('plugins')}
          onSettingsClick={onOpenSettings}
          budgets={budgets}
          budgetStopped={budgetStopNotice(transcript)}
          onUsageClick={() => openOverlay('usage')}
          contextWindow={info.context_window}
          compactAtPercent={info.compact_at_percent}
        />
      </div>
      {shown && <RequestDialog requests={requests} error={controls.error} root={info.cwd} />}
      {shown && <SessionOverlay session={session} overlays={overlays} mode={mode} setTrust={controls.setTrust} changes={controls.changes} />}
      {shown && rewinding && !requests.asking && (
        <RewindDialog
          ordinal={rewinding.ordinal}
          text={rewinding.text}
          promptId={rewinding.promptId}
          loadPoints={controls.rewindPoints}
          rewind={(promptId, scope, force) => rewind(promptId, rewinding.ordinal, scope, force)}
          onRewound={rewinds.onRewound}
          fork={async (promptId) => {
            const forked = await ipc.forkSession(sessionId, promptId);
            await open(info.cwd, forked);
          }}
          onCancel={rewinds.close}
        />
      )}
    </div>
    </ShownTabContext.Provider>
  );
}


// The root of the webview: loads the app state, opens the command-line folder (or remote folder) if there is one (or,
// after a reload, the tabs the window showed), follows the menu (Open Folder…, Open Remote Folder…, Open Recent, New
// Session, New Session with…, Import…, Settings…), applies the
// person's theme and font size, and shows the welcome screen or the open sessions in tabs, with the settings dialog
// above. Every opened session keeps its tab and runs on while another is shown; opening a folder or a new session
// opens a new tab, opening a stored session that is open shows its tab. Ctrl+Tab / Ctrl+Shift+Tab cycle the tabs,
// Ctrl+W closes the shown one (asking first while its turn runs or a dialog waits). Ctrl+K opens the search box over
// every stored session; opening a hit shows its session (in its folder) at the matching message.
import { useCallback, useEffect, useEffectEvent, useMemo, useRef, useState } from 'react';
import { useLoad } from '../../hooks/useLoad';
import { useOpenSessions } from '../../hooks/useOpenSessions';
import type { TabsHub } from '../../hooks/useSession';
import * as ipc from '../../ipc';
import type { SavedSettings } from '../../generated/app';
import type { SessionSearchHit, Theme } from '../../generated/protocol';
import { activeSession, markOf, type SessionMark } from '../../state/openSessions';
import { promptItems } from '../../state/rewind';
import { tabKey } from '../../state/tabKeys';
import { tabsBeforeReload } from '../../state/reload';
import { applyLooks, followDesktopScheme } from '../../settings/looks';
import { CloseTabConfirm } from '../dialogs/CloseTabConfirm';
import { HostedReopenFailed } from '../dialogs/HostedReopenFailed';
import { HostedSessionDialog } from '../dialogs/HostedSessionDialog';
import { RemoteFolderDialog } from '../dialogs/RemoteFolderDialog';
import { ImportDialog } from '../dialogs/ImportDialog';
import { SettingsDialog } from '../dialogs/SettingsDialog';
import { SearchBox } from '../search/SearchBox';
import { SessionTab } from './SessionTab';
import { SessionTabs, type TabView } from './SessionTabs';
import { Welcome } from './Welcome';

export function App() {
  const tabs = useOpenSessions();
  const { open, openHosted, opening, error, clearError, activate, cycle, close, dispatchFor, lastBatchAt, hostedFailure, settleHostedFailure } = tabs;
  const openFolder = useCallback((path: string) => void open(path), [open]);
  const onMenuFolder = useEffectEvent((path: string) => openFolder(path));
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [searchOpen, setSearchOpen] = useState(false);
  /** The tab asked to close while its session runs or waits, until the person confirms. */
  const [closing, setClosing] = useState<string | null>(null);
  /** The import the menu asked for (from the reference agent's folder, or picked files) while its dialog shows. */
  const [importFrom, setImportFrom] = useState<boolean | null>(null);
  const closeImport = useCallback(() => setImportFrom(null), []);
  const openImported = useCallback(
    (folder: string, id: string) => {
      setImportFrom(null);
      void open(folder, id);
    },
    [open],
  );
  /** How many times the settings were saved: the status bars count the budgets again. */
  const [settingsSaves, setSettingsSaves] = useState(0);
  /** The message a search hit opened, until its session's transcript has shown it. */
  const [focus, setFocus] = useState<{ sessionId: string; seq: number } | null>(null);
  const openHit = useCallback(
    (hit: SessionSearchHit) => {
      setSearchOpen(false);
      setFocus({ sessionId: hit.session_id, seq: hit.seq });
      void open(hit.folder, hit.session_id);
    },
    [open],
  );
  const clearFocus = useCallback(() => setFocus(null), []);
  const closeSearch = useCallback(() => setSearchOpen(false), []);

  /** The open sessions as last rendered, for the callbacks that act on them later. */
  const latest = useRef(tabs.state);
  useEffect(() => {
    latest.current = tabs.state;
  });
  /** Closes a tab, asking first while its session runs a turn or waits for the person. */
  const requestClose = useCallback(
    (sessionId: string) => {
      const tab = latest.current.tabs.find((each) => each.info.session_id === sessionId);
      if (!tab) return;
      if (markOf(tab) !== null) setClosing(sessionId);
      else void close(sessionId);
    },
    [close],
  );
  // The menu's New Session opens a new tab in the folder of the session shown at that moment (read when the event
  // arrives, which may be before this render's effects ran).
  const newSession = useCallback(() => {
    const cwd = activeSession(latest.current)?.info.cwd;
    if (cwd) void open(cwd);
  }, [open]);
  /** The folder "New Session with…" asked for, while its dialog shows. */
  const [hostedFolder, setHostedFolder] = useState<string | null>(null);
  /** The Open Remote Folder dialog, with the folder the session would be stored under. */
  const [remoteDialog, setRemoteDialog] = useState<{ folder: string | null } | null>(null);
  const closeHosted = useCallback(() => setHostedFolder(null), []);
  const closeRemote = useCallback(() => setRemoteDialog(null), []);
  const chooseAgent = useCallback(
    async (name: string) => {
      if (hostedFolder === null) return null;
      const failed = await openHosted(hostedFolder, { agent: name });
      if (failed === null) setHostedFolder(null);
      return failed;
    },
    [openHosted, hostedFolder],
  );
  const openRemote = useCallback(
    async (url: string) => {
      const failed = await openHosted(remoteDialog?.folder ?? null, { remote: url });
      if (failed === null) setRemoteDialog(null);
      return failed;
    },
    [openHosted, remoteDialog],
  );
  const onTabKey = useEffectEvent((action: 'next' | 'previous' | 'close') => {
    if (action === 'close') {
      const shown = latest.current.active;
      if (shown && closing === null) requestClose(shown);
    } else cycle(action === 'next' ? 1 : -1);
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented) return;
      // In the terminal panel, Ctrl+K and Ctrl+W are the shell's (kill the line, erase a word); Ctrl+Tab still switches.
      const inTerminal = event.target instanceof Element && event.target.closest('.terminal-panel') !== null;
      const ctrlK = (event.ctrlKey || event.metaKey) && !event.altKey && (event.key.toLowerCase() === 'k' || event.code === 'KeyK');
      if (ctrlK && inTerminal) return;
      if (ctrlK) {
        event.preventDefault();
        setSearchOpen(true);
        return;
      }
      const action = tabKey(event);
      if (!action || (action === 'close' && inTerminal)) return;
      event.preventDefault();
      onTabKey(action);
    };
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, []);
  // The theme and font size: as stored when the window opens, then as last saved.
  const stored = useLoad(ipc.appSettings).data;
  const [savedLooks, setSavedLooks] = useState<{ theme: Theme; fontSize: number; notifications: boolean } | null>(null);
  const theme = savedLooks?.theme ?? stored?.theme ?? null;
  const fontSize = savedLooks?.fontSize ?? stored?.font_size ?? null;
  const notifications = savedLooks?.notifications ?? stored?.notifications ?? true;
  const [app, setApp] = useState<ipc.AppStateView | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const before = tabsBeforeReload();
    ipc
      .appState()
      .then(async (state) => {
        setApp(state);
        // A reloaded window shows the tabs it showed; a session never stored (nothing sent yet) opens anew.
        if (before) {
          for (const tab of before.tabs) {
            if (!(await open(tab.cwd, tab.sessionId))) {
              clearError();
              await open(tab.cwd);
            }
          }
          if (before.active) activate(before.active);
        } else if (state.remote) {
          // `tandem ssh://…`: the remote folder, stored under the folder the app started in.
          const failed = await openHosted(null, { remote: state.remote });
          if (failed !== null) setLoadError(failed);
        } else if (state.folder) await open(state.folder);
      })
      .catch((cause: unknown) => setLoadError(ipc.errorMessage(cause)));
  }, [open, openHosted, clearError, activate]);

  useEffect(() => {
    if (theme === null || fontSize === null) return;
    applyLooks(theme, fontSize);
    return theme === 'system' ? followDesktopScheme(() => applyLooks(theme, fontSize)) : undefined;
  }, [theme, fontSize]);

  const onSettingsSaved = useCallback(
    (saved: SavedSettings) => {
      setSavedLooks({
        theme: saved.settings.theme,
        fontSize: saved.settings.font_size,
        notifications: saved.settings.notifications,
      });
      setSettingsSaves((count) => count + 1);
      for (const info of saved.sessions) dispatchFor(info.session_id, { type: 'info', info });
      setSettingsOpen(false);
    },
    [dispatchFor],
  );
  const openSettings = useCallback(() => setSettingsOpen(true), []);
  const closeSettings = useCallback(() => setSettingsOpen(false), []);

  // File ▸ New Session with…: in the shown tab's folder, or a folder picked first.
  const newHostedSession = useCallback(async () => {
    const cwd = activeSession(latest.current)?.info.cwd ?? (await ipc.pickFolder().catch(() => null));
    if (cwd) setHostedFolder(cwd);
  }, []);
  const onNewWith = useCallback(() => void newHostedSession(), [newHostedSession]);
  // File ▸ Open Remote Folder… asks for the URL; a later launch naming one opens it at once.
  const onOpenRemote = useEffectEvent((request: ipc.OpenRemote) => {
    const folder = request.folder ?? activeSession(latest.current)?.info.cwd ?? null;
    if (request.url === null) {
      setRemoteDialog({ folder });
      return;
    }
    void openHosted(folder, { remote: request.url }).then((failed) => setLoadError(failed));
  });

  useEffect(() => {
    const subscriptions = [
      ipc.onOpenSettings(openSettings),
      ipc.onNewHostedSession(() => void newHostedSession()),
      ipc.onOpenRemote((request) => onOpenRemote(request)),
      ipc.onOpenFolder((path) => onMenuFolder(path)),
      ipc.onNewSession(() => newSession()),
      ipc.onImportSessions((claudeCode) => setImportFrom(claudeCode)),
    ];
    return () => {
      for (const subscription of subscriptions) void subscription.then((unlisten) => unlisten());
    };
  }, [openSettings, newSession, newHostedSession]);

  const pickFolder = useCallback(async () => {
    try {
      const path = await ipc.pickFolder();
      if (path) openFolder(path);
    } catch (cause) {
      setLoadError(ipc.errorMessage(cause));
    }
  }, [openFolder]);
  const onPickFolder = useCallback(() => void pickFolder(), [pickFolder]);

  // What each tab's controls use: stable while only the sessions' states change.
  const hub = useMemo<TabsHub>(
    () => ({ dispatchFor, lastBatchAt, open, error, clearError }),
    [dispatchFor, lastBatchAt, open, error, clearError],
  );
  const views = useMemo<TabView[]>(
    () =>
      tabs.state.tabs.map((each) => ({
        sessionId: each.info.session_id,
        folderName: each.info.folder_name,
        cwd: each.info.cwd,
        title: promptItems(each.transcript.items)[0]?.text ?? null,
        mark: markOf(each),
      })),
    [tabs.state.tabs],
  );
  // The marks, as one value that changes only when a mark does (the sidebars re-render then, not at every event).
  const marksKey = views.map((view) => `${view.sessionId}:${view.mark ?? ''}`).join(' ');
  const openMarks = useMemo(
    () => new Map<string, SessionMark>(marksKey.split(' ').filter(Boolean).map((pair) => {
      const at = pair.lastIndexOf(':');
      return [pair.slice(0, at), (pair.slice(at + 1) || null) as SessionMark];
    })),
    [marksKey],
  );

  const settings = settingsOpen && (
    <SettingsDialog load={ipc.appSettings} save={ipc.saveAppSettings} onSaved={onSettingsSaved} onClose={closeSettings} />
  );
  const importDialog = importFrom !== null && (
    <ImportDialog claudeCode={importFrom} run={ipc.importSessions} onOpen={openImported} onClose={closeImport} />
  );
  const searchBox = searchOpen && <SearchBox search={ipc.searchSessions} onOpen={openHit} onClose={closeSearch} />;
  const hostedDialog = hostedFolder !== null && (
    <HostedSessionDialog folder={hostedFolder} load={ipc.agentServers} onChoose={chooseAgent} onClose={closeHosted} />
  );
  const remoteFolderDialog = remoteDialog !== null && (
    <RemoteFolderDialog folder={remoteDialog.folder} onOpen={openRemote} onClose={closeRemote} />
  );
  const reopenFailed = hostedFailure !== null && (
    <HostedReopenFailed
      message={hostedFailure.message}
      busy={opening}
      onOwnAgent={() => void settleHostedFailure(true)}
      onCancel={() => void settleHostedFailure(false)}
    />
  );
  const dialogShown = hostedFolder !== null || remoteDialog !== null || hostedFailure !== null;
  const closingTab = closing === null ? null : tabs.state.tabs.find((each) => each.info.session_id === closing);
  const confirmClose = closingTab && (
    <CloseTabConfirm
      folder={closingTab.info.cwd}
      waiting={markOf(closingTab) === 'waiting'}
      onConfirm={() => {
        setClosing(null);
        void close(closingTab.info.session_id);
      }}
      onCancel={() => setClosing(null)}
    />
  );
  if (tabs.state.tabs.length > 0) {
    return (
      <>
        <div className="app-layer" inert={settingsOpen || closingTab !== null || searchOpen || importFrom !== null || dialogShown}>
          <div className="tabbed-window">
            <SessionTabs tabs={views} active={tabs.state.active} onActivate={activate} onClose={requestClose} onNew={newSession} onNewWith={onNewWith} />
            <div className="session-panes">
              {tabs.state.tabs.map((each) => {
                const id = each.info.session_id;
                return (
                  <SessionTab
                    key={id}
                    session={each}
                    tabs={hub}
                    shown={id === tabs.state.active}
                    openMarks={openMarks}
                    folderTurns={tabs.state.tabs.reduce(
                      (sum, other) => (other !== each && other.info.cwd === each.info.cwd ? sum + other.transcript.turnsEnded : sum),
                      0,
                    )}
                    onPickFolder={onPickFolder}
                    onOpenSettings={openSettings}
                    notifications={notifications}
                    focusSeq={focus?.sessionId === id ? focus.seq : null}
                    onFocused={clearFocus}
                    settingsSaves={settingsSaves}
                  />
                );
              })}
            </div>
          </div>
        </div>
        {settings}
        {searchBox}
        {importDialog}
        {confirmClose}
        {hostedDialog}
        {remoteFolderDialog}
        {reopenFailed}
      </>
    );
  }
  return (
    <>
      <div className="app-layer" inert={settingsOpen || searchOpen || importFrom !== null || dialogShown}>
        <Welcome
          recent={app?.recent ?? []}
          version={app?.version ?? null}
          opening={opening}
          error={error ?? loadError}
          onDismissError={() => {
            clearError();
            setLoadError(null);
          }}
          onPickFolder={onPickFolder}
          onOpenRecent={openFolder}
          onOpenSettings={openSettings}
        />
      </div>
      {settings}
      {searchBox}
      {importDialog}
      {hostedDialog}
      {remoteFolderDialog}
      {reopenFailed}
    </>
  );
}

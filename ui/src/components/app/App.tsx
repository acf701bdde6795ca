// The root of the webview: loads the app state, opens the command-line folder if there is one,
// follows the menu (Open Folder…, Open Recent, New Session, Import…, Settings…), applies the person's theme
// and font size, and shows the welcome screen or the open session, with the settings dialog above. Ctrl+K opens
// the search box over every stored session; opening a hit opens its session (in its folder) at the matching message.
import { useCallback, useEffect, useEffectEvent, useRef, useState } from 'react';
import { useLoad } from '../../hooks/useLoad';
import { useSession } from '../../hooks/useSession';
import * as ipc from '../../ipc';
import type { SavedSettings } from '../../generated/app';
import type { SessionSearchHit, Theme } from '../../generated/protocol';
import { openBeforeReload } from '../../state/reload';
import { applyLooks, followDesktopScheme } from '../../settings/looks';
import { SessionView } from '../session/SessionView';
import { ImportDialog } from '../dialogs/ImportDialog';
import { SettingsDialog } from '../dialogs/SettingsDialog';
import { SwitchFolderConfirm } from '../dialogs/SwitchFolderConfirm';
import { SearchBox } from '../search/SearchBox';
import { Welcome } from './Welcome';

export function App() {
  const controls = useSession();
  const { session, open, opening, error, clearError, updateInfo, interrupt } = controls;
  /** A folder asked for while a turn runs, waiting for the person's confirmation. */
  const [switchTo, setSwitchTo] = useState<string | null>(null);
  const running = session?.transcript.running ?? false;
  const sessionCwd = session?.info.cwd ?? null;
  // Opening another folder replaces the session: while a turn runs, ask first.
  const openFolder = useCallback(
    (path: string) => {
      if (running && path !== sessionCwd) setSwitchTo(path);
      else void open(path);
    },
    [running, sessionCwd, open],
  );
  const onMenuFolder = useEffectEvent((path: string) => openFolder(path));
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [searchOpen, setSearchOpen] = useState(false);
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
  /** The message a search hit opened, until its session's transcript has shown it. */
  const [focus, setFocus] = useState<{ sessionId: string; seq: number } | null>(null);
  const sessionId = session?.info.session_id ?? null;
  const openHit = useCallback(
    (hit: SessionSearchHit) => {
      setSearchOpen(false);
      setFocus({ sessionId: hit.session_id, seq: hit.seq });
      if (hit.session_id !== sessionId) void open(hit.folder, hit.session_id);
    },
    [sessionId, open],
  );
  const clearFocus = useCallback(() => setFocus(null), []);
  const closeSearch = useCallback(() => setSearchOpen(false), []);
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const ctrlK = (event.ctrlKey || event.metaKey) && !event.altKey && (event.key.toLowerCase() === 'k' || event.code === 'KeyK');
      if (!ctrlK || event.defaultPrevented) return;
      event.preventDefault();
      setSearchOpen(true);
    };
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, []);
  /** How many times the settings were saved: the status bar counts the budgets again. */
  const [settingsSaves, setSettingsSaves] = useState(0);
  // The theme and font size: as stored when the window opens, then as last saved.
  const stored = useLoad(ipc.appSettings).data;
  const [savedLooks, setSavedLooks] = useState<{ theme: Theme; fontSize: number; notifications: boolean } | null>(null);
  const theme = savedLooks?.theme ?? stored?.theme ?? null;
  const fontSize = savedLooks?.fontSize ?? stored?.font_size ?? null;
  const notifications = savedLooks?.notifications ?? stored?.notifications ?? true;
  const [app, setApp] = useState<ipc.AppStateView | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const started = useRef(false);
  // The menu's New Session opens the folder of the session open at that moment (read when the event
  // arrives, which may be before this render's effects ran).
  const currentCwd = session?.info.cwd ?? null;
  const newSession = useEffectEvent(() => {
    if (currentCwd) void open(currentCwd);
  });

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const before = openBeforeReload();
    ipc
      .appState()
      .then(async (state) => {
        setApp(state);
        // A reloaded window shows the session it showed; one never stored (nothing sent yet) opens anew.
        if (before) {
          if (!(await open(before.cwd, before.sessionId))) {
            clearError();
            await open(before.cwd);
          }
        } else if (state.folder) await open(state.folder);
      })
      .catch((cause: unknown) => setLoadError(ipc.errorMessage(cause)));
  }, [open, clearError]);

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
      for (const info of saved.sessions) updateInfo(info);
      setSettingsOpen(false);
    },
    [updateInfo],
  );
  const openSettings = useCallback(() => setSettingsOpen(true), []);
  const closeSettings = useCallback(() => setSettingsOpen(false), []);

  useEffect(() => {
    const subscriptions = [
      ipc.onOpenSettings(openSettings),
      ipc.onOpenFolder((path) => onMenuFolder(path)),
      ipc.onNewSession(() => newSession()),
      ipc.onImportSessions((claudeCode) => setImportFrom(claudeCode)),
    ];
    return () => {
      for (const subscription of subscriptions) void subscription.then((unlisten) => unlisten());
    };
  }, [open, openSettings]);

  const pickFolder = useCallback(async () => {
    try {
      const path = await ipc.pickFolder();
      if (path) openFolder(path);
    } catch (cause) {
      setLoadError(ipc.errorMessage(cause));
    }
  }, [openFolder]);

  const settings = settingsOpen && (
    <SettingsDialog load={ipc.appSettings} save={ipc.saveAppSettings} onSaved={onSettingsSaved} onClose={closeSettings} />
  );
  const importDialog = importFrom !== null && (
    <ImportDialog claudeCode={importFrom} run={ipc.importSessions} onOpen={openImported} onClose={closeImport} />
  );
  const searchBox = searchOpen && <SearchBox search={ipc.searchSessions} onOpen={openHit} onClose={closeSearch} />;
  const confirmSwitch = switchTo !== null && session && (
    <SwitchFolderConfirm
      current={session.info.cwd}
      next={switchTo}
      onConfirm={() => {
        setSwitchTo(null);
        void interrupt().then(() => open(switchTo));
      }}
      onCancel={() => setSwitchTo(null)}
    />
  );
  if (session) {
    // Keyed by session: a new session starts with fresh view state (expanded rows, answered requests).
    return (
      <>
        <div className="app-layer" inert={settingsOpen || switchTo !== null || searchOpen || importFrom !== null}>
          <SessionView
            key={session.info.session_id}
            session={session}
            controls={controls}
            onPickFolder={() => void pickFolder()}
            onOpenSettings={openSettings}
            notifications={notifications}
            focusSeq={focus?.sessionId === session.info.session_id ? focus.seq : null}
            onFocused={clearFocus}
            settingsSaves={settingsSaves}
          />
        </div>
        {settings}
        {searchBox}
        {importDialog}
        {confirmSwitch}
      </>
    );
  }
  return (
    <>
      <div className="app-layer" inert={settingsOpen || searchOpen || importFrom !== null}>
        <Welcome
      recent={app?.recent ?? []}
      version={app?.version ?? null}
      opening={opening}
      error={error ?? loadError}
      onDismissError={() => {
        clearError();
        setLoadError(null);
      }}
      onPickFolder={() => void pickFolder()}
      onOpenRecent={(path) => void open(path)}
      onOpenSettings={openSettings}
        />
      </div>
      {settings}
      {searchBox}
      {importDialog}
    </>
  );
}

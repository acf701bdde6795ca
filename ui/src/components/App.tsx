// The root of the webview: loads the app state, opens the command-line folder if there is one,
// follows the menu (Open Folder…, Open Recent, New Session), and shows the welcome screen or the
// open session.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useSession } from '../hooks/useSession';
import * as ipc from '../ipc';
import { SessionView } from './SessionView';
import { Welcome } from './Welcome';

export function App() {
  const controls = useSession();
  const { session, open, opening, error, clearError } = controls;
  const [app, setApp] = useState<ipc.AppStateView | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const started = useRef(false);
  // The menu's New Session opens the folder of the session open at that moment.
  const cwd = useRef<string | null>(null);
  const currentCwd = session?.info.cwd ?? null;
  useEffect(() => {
    cwd.current = currentCwd;
  }, [currentCwd]);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    ipc
      .appState()
      .then((state) => {
        setApp(state);
        if (state.folder) void open(state.folder);
      })
      .catch((cause: unknown) => setLoadError(ipc.errorMessage(cause)));
  }, [open]);

  useEffect(() => {
    const subscriptions = [
      ipc.onOpenFolder((path) => void open(path)),
      ipc.onNewSession(() => {
        if (cwd.current) void open(cwd.current);
      }),
    ];
    return () => {
      for (const subscription of subscriptions) void subscription.then((unlisten) => unlisten());
    };
  }, [open]);

  const pickFolder = useCallback(async () => {
    try {
      const path = await ipc.pickFolder();
      if (path) await open(path);
    } catch (cause) {
      setLoadError(ipc.errorMessage(cause));
    }
  }, [open]);

  if (session) {
    // Keyed by session: a new session starts with fresh view state (expanded rows, answered requests).
    return (
      <SessionView
        key={session.info.session_id}
        session={session}
        controls={controls}
        onPickFolder={() => void pickFolder()}
      />
    );
  }
  return (
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
    />
  );
}

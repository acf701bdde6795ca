// One tab's session pane: the session's controls (its commands, errors and catching up) and its view, mounted for as
// long as the tab is open; a hidden tab's pane keeps its place but is invisible and inert, and shows no dialog. A tab
// being shown puts the focus in its prompt box, unless one of its dialogs took it.
import { memo, useEffect, useRef } from 'react';
import { useSessionControls, type TabsHub } from '../../hooks/useSession';
import type { SessionMark } from '../../state/openSessions';
import type { Session } from '../../state/session';
import { SessionView } from '../session/SessionView';

export type SessionTabProps = {
  session: Session;
  tabs: TabsHub;
  shown: boolean;
  openMarks: ReadonlyMap<string, SessionMark>;
  folderTurns: number;
  onPickFolder: () => void;
  onOpenSettings: () => void;
  notifications: boolean;
  focusSeq: number | null;
  onFocused: () => void;
  /** How many times the settings were saved (the budgets are counted again). */
  settingsSaves: number;
};

/** Memoised: a tab re-renders when its own session, its being shown or the marks change, not at another's events. */
export const SessionTab = memo(function SessionTab({ session, tabs, shown, ...view }: SessionTabProps) {
  const controls = useSessionControls(session, tabs, shown);
  const pane = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!shown || document.activeElement?.closest('[role="dialog"]')) return;
    pane.current?.querySelector<HTMLElement>('[data-testid="prompt-input"]')?.focus();
  }, [shown]);
  return (
    <div ref={pane} className={shown ? 'session-pane' : 'session-pane is-hidden'} data-testid="session-pane" inert={!shown} aria-hidden={!shown}>
      <SessionView session={session} controls={controls} shown={shown} {...view} />
    </div>
  );
});

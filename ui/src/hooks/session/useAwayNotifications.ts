// Tells a person who is not looking at the window, by a desktop notification, when a request starts waiting for
// them or a turn ends (when they have not turned notifications off in the settings).
import { useEffect, useRef } from 'react';
import * as ipc from '../../ipc';
import { noticeBetween, type Moment, type Notice } from '../../state/awayNotice';

export type AwayOptions = {
  enabled: boolean;
  /** Where the session works, named in the title (the folder's name). */
  where: string;
  /** Shows the notification; failures are ignored (a system without a notification service). */
  notify?: (notice: Notice) => Promise<void>;
  /** Whether the person is away from the window. */
  isAway?: () => boolean;
};

const notifyPerson = (notice: Notice) => ipc.notifyPerson(notice.title, notice.body);
const windowUnfocused = () => !document.hasFocus();

export function useAwayNotifications(moment: Moment, options: AwayOptions): void {
  const { enabled, where, notify = notifyPerson, isAway = windowUnfocused } = options;
  const before = useRef<Moment | null>(null);
  const { sessionId, turnsEnded } = moment;
  const waitingId = moment.waiting?.id ?? null;
  const waitingText = moment.waiting?.text ?? '';
  useEffect(() => {
    const waiting = waitingId === null ? null : { id: waitingId, text: waitingText };
    const now = { sessionId, waiting, turnsEnded };
    const notice = noticeBetween(before.current, now, where);
    before.current = now;
    if (notice && enabled && isAway()) notify(notice).catch(() => undefined);
  }, [sessionId, waitingId, waitingText, turnsEnded, where, enabled, notify, isAway]);
}

// Shows the desktop notifications the agent asks for (PushNotification) as they arrive, whether or not the window
// has the focus, unless the person turned notifications off. Only those that arrive while a turn runs are shown:
// the agent asks for them during its turns, while a reopened session's history arrives with its turns ended.
import { useEffect, useRef } from 'react';
import * as ipc from '../../ipc';
import type { Transcript } from '../../state/transcript';

type Seen = { sessionId: string; pushes: number };

export function usePushNotifications(
  sessionId: string,
  transcript: Pick<Transcript, 'items' | 'pushes' | 'running'>,
  enabled: boolean,
  notify: (title: string, message: string) => Promise<void> = ipc.notifyPerson,
): void {
  const seen = useRef<Seen | null>(null);
  const { items, pushes, running } = transcript;
  useEffect(() => {
    const before = seen.current;
    seen.current = { sessionId, pushes };
    if (!before || before.sessionId !== sessionId || pushes <= before.pushes || !enabled || !running) return;
    const fresh = items.filter((item) => item.kind === 'push_notification').slice(before.pushes);
    for (const item of fresh) {
      if (item.kind === 'push_notification') notify(item.title, item.message).catch(() => undefined);
    }
  }, [sessionId, items, pushes, running, enabled, notify]);
}

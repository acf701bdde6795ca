// The agent's desktop notifications: shown once each as they arrive during a turn, not for a session's history,
// not when turned off, and not again when the same transcript renders again.
import { renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Transcript, TranscriptItem } from '../../state/transcript';
import { usePushNotifications } from './usePushNotifications';

type View = Pick<Transcript, 'items' | 'pushes' | 'running'>;

const push = (n: number): TranscriptItem => ({ kind: 'push_notification', key: `p${n}`, title: 'Build', message: `m${n}` });
const view = (count: number, running: boolean): View => ({
  items: Array.from({ length: count }, (_, i) => push(i + 1)),
  pushes: count,
  running,
});

function mount(first: View, enabled = true) {
  const notify = vi.fn(() => Promise.resolve());
  const hook = renderHook((props: { t: View; enabled: boolean }) => usePushNotifications('s1', props.t, props.enabled, notify), {
    initialProps: { t: first, enabled },
  });
  return { notify, hook };
}

describe('usePushNotifications', () => {
  it('shows each notification that arrives during a turn once, in order', () => {
    const { notify, hook } = mount(view(0, true));
    hook.rerender({ t: view(2, true), enabled: true });
    hook.rerender({ t: view(2, true), enabled: true });
    hook.rerender({ t: view(3, true), enabled: true });
    expect(notify.mock.calls).toEqual([
      ['Build', 'm1'],
      ['Build', 'm2'],
      ['Build', 'm3'],
    ]);
  });

  it('does not show those of the history the window first sees, nor those arriving with the turn ended', () => {
    const { notify, hook } = mount(view(2, false));
    hook.rerender({ t: view(4, false), enabled: true });
    expect(notify).not.toHaveBeenCalled();
  });

  it('shows nothing when notifications are off', () => {
    const { notify, hook } = mount(view(0, true), false);
    hook.rerender({ t: view(1, true), enabled: false });
    expect(notify).not.toHaveBeenCalled();
  });
});

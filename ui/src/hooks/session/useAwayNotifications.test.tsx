// Tests of the away notifications hook: it notifies only while the window is unfocused and notifications are on,
// once per request newly on screen and per ended turn, and a failing notification service is ignored.
import { renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Moment, Notice } from '../../state/awayNotice';
import { useAwayNotifications } from './useAwayNotifications';

type Props = { moment: Moment; enabled: boolean; away: boolean };

function setUp(initial: Props, notify: (notice: Notice) => Promise<void>) {
  let away = initial.away;
  const isAway = () => away;
  const hook = renderHook(
    (props: Props) => {
      away = props.away;
      useAwayNotifications(props.moment, { enabled: props.enabled, where: 'api', notify, isAway });
    },
    { initialProps: initial },
  );
  return hook;
}

const moment = (waitingId: string | null, turnsEnded: number): Moment => ({
  sessionId: 's1',
  waiting: waitingId === null ? null : { id: waitingId, text: `request ${waitingId}` },
  turnsEnded,
});

describe('useAwayNotifications', () => {
  it('notifies while away, once per request and per ended turn', () => {
    const notify = vi.fn(() => Promise.resolve());
    const { rerender } = setUp({ moment: moment(null, 0), enabled: true, away: true }, notify);
    expect(notify).not.toHaveBeenCalled();
    rerender({ moment: moment('a', 0), enabled: true, away: true });
    rerender({ moment: moment('a', 0), enabled: true, away: true });
    expect(notify).toHaveBeenCalledTimes(1);
    expect(notify).toHaveBeenLastCalledWith({ title: 'Tandem is waiting for you — api', body: 'request a' });
    rerender({ moment: moment(null, 1), enabled: true, away: true });
    expect(notify).toHaveBeenCalledTimes(2);
    expect(notify).toHaveBeenLastCalledWith(expect.objectContaining({ title: 'Tandem finished — api' }));
  });

  it('stays quiet while the window is focused or notifications are off', () => {
    const notify = vi.fn(() => Promise.resolve());
    const { rerender } = setUp({ moment: moment(null, 0), enabled: true, away: false }, notify);
    rerender({ moment: moment('a', 0), enabled: true, away: false });
    rerender({ moment: moment(null, 1), enabled: false, away: true });
    rerender({ moment: moment('b', 1), enabled: false, away: true });
    expect(notify).not.toHaveBeenCalled();
    // Coming back on does not replay what happened meanwhile.
    rerender({ moment: moment('b', 1), enabled: true, away: true });
    expect(notify).not.toHaveBeenCalled();
  });

  it('ignores a notification service that fails', async () => {
    const notify = vi.fn(() => Promise.reject(new Error('no notification service')));
    const { rerender } = setUp({ moment: moment(null, 0), enabled: true, away: true }, notify);
    rerender({ moment: moment('a', 0), enabled: true, away: true });
    await Promise.resolve();
    expect(notify).toHaveBeenCalledTimes(1);
  });
});

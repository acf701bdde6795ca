// Tests of loading: the value and the loading state, the error, reloads, and answers that come too late (after the
// inputs changed or a newer load started) being dropped. Every load is a promise the test settles by hand.
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useLoad, type Loaded } from './useLoad';

/** A load whose answers the test gives: each call waits on its own promise. */
function manualLoad<T>() {
  const calls: { resolve: (value: T) => void; reject: (cause: unknown) => void }[] = [];
  const load = () =>
    new Promise<T>((resolve, reject) => {
      calls.push({ resolve, reject });
    });
  /** Settles call `index` and lets React apply the result. */
  const settle = async (index: number, outcome: { value: T } | { error: unknown }) => {
    const call = calls[index];
    if (!call) throw new Error(`load was called ${calls.length} times, not ${index + 1}`);
    await act(async () => {
      if ('value' in outcome) call.resolve(outcome.value);
      else call.reject(outcome.error);
      await Promise.resolve();
    });
  };
  return { load, calls, settle };
}

type Props = { load: (() => Promise<string>) | null; refreshKey?: string | number | null };

describe('useLoad', () => {
  it('loads on mount: loading, then the value', async () => {
    const source = manualLoad<string>();
    const { result } = renderHook(() => useLoad(source.load));
    expect(result.current).toMatchObject({ data: null, error: null, loading: true });
    await source.settle(0, { value: 'rules' });
    expect(result.current).toMatchObject({ data: 'rules', error: null, loading: false });
    expect(source.calls).toHaveLength(1);
  });

  it('shows why a load failed, and a later success clears it', async () => {
    const source = manualLoad<string>();
    const { result } = renderHook(() => useLoad(source.load));
    await source.settle(0, { error: { code: 'no_session', message: 'No session is open' } });
    expect(result.current).toMatchObject({ data: null, error: 'No session is open', loading: false });
    act(() => result.current.reload());
    await source.settle(1, { value: 'back' });
    expect(result.current).toMatchObject({ data: 'back', error: null, loading: false });
  });

  it('reloads, keeping the value on screen meanwhile and after a failed reload', async () => {
    const source = manualLoad<string>();
    const { result } = renderHook(() => useLoad(source.load));
    await source.settle(0, { value: 'first' });
    act(() => result.current.reload());
    expect(source.calls).toHaveLength(2);
    expect(result.current).toMatchObject({ data: 'first', loading: true });
    await source.settle(1, { error: new Error('disk full') });
    expect(result.current).toMatchObject({ data: 'first', error: 'disk full', loading: false });
  });

  it('drops the answer of a load that a reload replaced', async () => {
    const source = manualLoad<string>();
    const { result } = renderHook(() => useLoad(source.load));
    act(() => result.current.reload());
    await source.settle(1, { value: 'newer' });
    await source.settle(0, { value: 'older' });
    expect(result.current).toMatchObject({ data: 'newer', loading: false });
  });

  it('drops the answer for inputs that changed since, and loads for the new ones', async () => {
    const first = manualLoad<string>();
    const second = manualLoad<string>();
    const { result, rerender } = renderHook(({ load }: Props) => useLoad(load), { initialProps: { load: first.load } });
    rerender({ load: second.load });
    await first.settle(0, { value: 'for the old folder' });
    expect(result.current).toMatchObject({ data: null, loading: true });
    await second.settle(0, { value: 'for the new folder' });
    expect(result.current).toMatchObject({ data: 'for the new folder', loading: false });
  });

  it('loads again when the refresh key changes, and not when it stays', async () => {
    const source = manualLoad<string>();
    const { result, rerender } = renderHook(({ load, refreshKey }: Props) => useLoad(load, refreshKey), {
      initialProps: { load: source.load, refreshKey: 'a:1' },
    });
    await source.settle(0, { value: 'one' });
    rerender({ load: source.load, refreshKey: 'a:1' });
    expect(source.calls).toHaveLength(1);
    rerender({ load: source.load, refreshKey: 'a:2' });
    expect(result.current).toMatchObject({ data: 'one', loading: true });
    await source.settle(1, { value: 'two' });
    expect(result.current).toMatchObject({ data: 'two', loading: false });
  });

  it('loads nothing while the load is null, keeping what it had', async () => {
    const source = manualLoad<string>();
    const { result, rerender } = renderHook<Loaded<string>, Props>(({ load }) => useLoad(load), { initialProps: { load: source.load } });
    await source.settle(0, { value: 'kept' });
    rerender({ load: null });
    act(() => result.current.reload());
    expect(source.calls).toHaveLength(1);
    expect(result.current).toMatchObject({ data: 'kept', loading: false });
  });
});

// Loading data for a component from the backend: runs `load` on mount and again whenever `load` (a memoised
// function: its identity is the input) or `refreshKey` changes, or `reload()` is called. A result that arrives after
// the component unmounted, after the inputs changed or after a newer load started is dropped, so an old answer never
// overwrites a newer one. A `null` load loads nothing (and keeps what was loaded).
import { useCallback, useEffect, useState } from 'react';
import { errorMessage } from '../ipc';

export type Loaded<T> = {
  /** The value of the last load that succeeded: kept while loading again and when a later load fails; null before. */
  data: T | null;
  /** Why the latest load failed; null once one succeeds. */
  error: string | null;
  /** Whether a load for the current inputs is still under way. */
  loading: boolean;
  /** Loads again with the same inputs. */
  reload: () => void;
};

/** Which load a result answers. */
type Request = { load: unknown; refreshKey: string | number | null; generation: number };

type Settled<T> = { data: T | null; error: string | null; request: Request | null };

export function useLoad<T>(load: (() => Promise<T>) | null, refreshKey: string | number | null = null): Loaded<T> {
  const [generation, setGeneration] = useState(0);
  const [settled, setSettled] = useState<Settled<T>>({ data: null, error: null, request: null });
  useEffect(() => {
    if (!load) return;
    let current = true;
    const request: Request = { load, refreshKey, generation };
    load().then(
      (data) => current && setSettled({ data, error: null, request }),
      (cause: unknown) => current && setSettled((previous) => ({ data: previous.data, error: errorMessage(cause), request })),
    );
    return () => {
      current = false;
    };
  }, [load, refreshKey, generation]);
  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  const answered =
    settled.request !== null &&
    settled.request.load === load &&
    Object.is(settled.request.refreshKey, refreshKey) &&
    settled.request.generation === generation;
  return { data: settled.data, error: settled.error, loading: load !== null && !answered, reload };
}

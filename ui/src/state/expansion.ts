// Which expandable parts of the transcript (tool details, groups, thinking) the user opened.
// Kept above the virtualised list, so the choice survives rows scrolling out of view.
import { createContext, useCallback, useContext, useState } from 'react';

export type Expansion = {
  isOpen: (key: string, byDefault: boolean) => boolean;
  toggle: (key: string, byDefault: boolean) => void;
};

export function useExpansionState(): Expansion {
  const [overrides, setOverrides] = useState<ReadonlyMap<string, boolean>>(new Map());
  const isOpen = useCallback(
    (key: string, byDefault: boolean) => overrides.get(key) ?? byDefault,
    [overrides],
  );
  const toggle = useCallback((key: string, byDefault: boolean) => {
    setOverrides((previous) => {
      const next = new Map(previous);
      next.set(key, !(previous.get(key) ?? byDefault));
      return next;
    });
  }, []);
  return { isOpen, toggle };
}

const fallback: Expansion = { isOpen: (_key, byDefault) => byDefault, toggle: () => {} };

export const ExpansionContext = createContext<Expansion>(fallback);

/** Whether `key` is open, and a function that flips it. */
export function useExpanded(key: string, byDefault = false): [boolean, () => void] {
  const { isOpen, toggle } = useContext(ExpansionContext);
  return [isOpen(key, byDefault), () => toggle(key, byDefault)];
}

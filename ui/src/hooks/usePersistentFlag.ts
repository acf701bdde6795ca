// A boolean UI preference kept in localStorage (e.g. whether the sessions sidebar is collapsed).
import { useCallback, useState } from 'react';

export function usePersistentFlag(key: string, initial: boolean): [boolean, () => void] {
  const [value, setValue] = useState<boolean>(() => {
    try {
      const stored = localStorage.getItem(key);
      return stored === null ? initial : stored === 'true';
    } catch {
      return initial;
    }
  });
  const toggle = useCallback(() => {
    setValue((previous) => {
      try {
        localStorage.setItem(key, String(!previous));
      } catch {
        // Storage may be unavailable; the choice then lasts until the window closes.
      }
      return !previous;
    });
  }, [key]);
  return [value, toggle];
}

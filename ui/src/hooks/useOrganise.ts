// The sidebar's organising actions for the open folder: each calls the backend, then reloads the list (`refresh`);
// each rejects with the backend's error (the sidebar shows it).
import { useMemo } from 'react';
import type { OrganiseActions } from '../components/sidebar/SessionSidebar';
import * as ipc from '../ipc';

export function useOrganise(cwd: string, refresh: () => void): OrganiseActions {
  return useMemo(() => {
    const then =
      <A extends unknown[], T>(call: (...args: A) => Promise<T>) =>
      async (...args: A): Promise<T> => {
        try {
          return await call(...args);
        } finally {
          refresh();
        }
      };
    return {
      pin: then(async (id: string, pinned: boolean) => ipc.setSessionPinned(id, pinned)),
      archive: then(async (id: string, archived: boolean) => ipc.setSessionArchived(id, archived)),
      setTags: then(async (id: string, tags: string[]) => {
        await ipc.setSessionTags(id, tags);
      }),
      moveSession: then(async (id: string, collection: number | null) => ipc.moveSession(id, collection)),
      createFolder: then(async (name: string, parent: number | null) => ipc.createCollection(cwd, name, parent)),
      renameFolder: then(async (id: number, name: string) => ipc.renameCollection(id, name)),
      deleteFolder: then(async (id: number) => ipc.deleteCollection(id)),
    };
  }, [cwd, refresh]);
}

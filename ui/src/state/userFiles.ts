// The door from the transcript's handed-over files (SendUserFile) to the desktop: open one with its application,
// or show it in its folder.
import { createContext } from 'react';

/** Opens `path` (or, with `reveal`, shows it in its folder); resolves to an error message, or null when it worked. */
export type OpenUserFile = (path: string, reveal: boolean) => Promise<string | null>;

/** A context: the open session's door; null where files cannot be opened (a replay, a test). */
export const UserFileContext = createContext<OpenUserFile | null>(null);

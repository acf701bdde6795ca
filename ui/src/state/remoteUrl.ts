// The check of a remote folder's URL before anything starts: `ssh://[user@]host[:port]/abs/path` (the app reads it
// fully and says what else is wrong).

/** Why `url` cannot be a remote folder, or null when it looks like one. */
export function remoteUrlProblem(url: string): string | null {
  const trimmed = url.trim();
  if (!trimmed.startsWith('ssh://')) return 'A remote folder starts with ssh:// (ssh://user@host/absolute/path).';
  const rest = trimmed.slice('ssh://'.length);
  const slash = rest.indexOf('/');
  if (slash <= 0) return 'Name the host and the absolute path of the folder there (ssh://user@host/absolute/path).';
  return null;
}

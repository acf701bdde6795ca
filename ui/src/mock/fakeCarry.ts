// Export and import in the e2e fake backend: an export "writes" a file named after the session's title into the
// person's Exports folder (kept for the test to read); an import brings in two conversations of the fake project
// from the reference agent's folder (one with a bad line), or one from picked files; importing again stores none.
import type { ImportSummary } from '../generated/app';
import type { StoredSession } from './fakeStoredSessions';
import { FAKE_ROOT } from './fakeProject';

export const EXPORTS_FOLDER = '/home/dev/Exports';

const EXTENSIONS: Record<string, string> = { md: 'md', html: 'html', jsonl: 'jsonl' };

/** The path an export of a session titled `title` in `format` is written to; an unknown format is the backend's error. */
export function exportPath(title: string, format: string): string {
  const extension = EXTENSIONS[format];
  if (!extension) throw { code: 'carry', message: `unknown export format "${format}" (md, html or jsonl)` };
  const stem = title.replace(/[^\p{L}\p{N}_-]+/gu, ' ').trim().slice(0, 60) || 'session';
  return `${EXPORTS_FOLDER}/${stem}.${extension}`;
}

function conversation(id: string, title: string, answer: string, now: number): StoredSession {
  return {
    summary: { session_id: id, title, updated_at_ms: now, message_count: 2, pinned: false, archived: false, tags: [], collection_id: null },
    events: [
      { type: 'turn_started', prompt: title },
      { type: 'text_delta', text: answer },
      { type: 'turn_ended', stop_reason: 'end_turn' },
    ],
  };
}

/** What the reference agent's folder holds (`claudeCode`), or the picked file. */
export function transcripts(claudeCode: boolean, now: number): StoredSession[] {
  const picked = conversation('imported-cache', 'Add a cache to the config loader', 'The loader now keeps the parsed file until it changes on disk.', now - 5 * 3_600_000);
  if (!claudeCode) return [picked];
  return [
    conversation('imported-logging', 'Make the logs quieter', 'Debug lines now go to the log file only; the console shows warnings and errors.', now - 48 * 3_600_000),
    conversation('imported-release', 'Write the release notes', 'The notes list the new import, the faster search and two fixes.', now - 72 * 3_600_000),
  ];
}

/** Stores the transcripts not stored yet into `stored` and sums the import up as the app does. */
export function importInto(stored: StoredSession[], claudeCode: boolean, now: number): ImportSummary {
  const summary: ImportSummary = { imported: [], already_there: 0, problems: [] };
  for (const each of transcripts(claudeCode, now)) {
    if (stored.some((old) => old.summary.session_id === each.summary.session_id)) {
      summary.already_there += 1;
      continue;
    }
    stored.push(each);
    summary.imported.push({ session_id: each.summary.session_id, folder: FAKE_ROOT, title: each.summary.title, messages: each.summary.message_count });
  }
  if (claudeCode) summary.problems.push('/home/dev/.claude/projects/-home-dev-projects-api/4f35e220.jsonl:7: not JSON (truncated line)');
  return summary;
}

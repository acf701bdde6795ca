// Rewinding a fake session (the e2e build's `rewind_points` and `rewind`), modelled on the engine:
// a point per prompt, oldest first, whose `prompt_id` is an id of the prompt's own (here 0, 2, 4…,
// never the row's ordinal); the files a rewind restores
// are those the session's turns changed from that prompt on. A file changed outside Tandem since
// its last turn wrote it (`__tandemFake.touch`) stops a file rewind unless forced, and then nothing
// changes. A conversation rewind cuts the session's event log before the prompt (a reopened session
// replays only what is left) and sends `conversation_rewound` like the engine.
import type { ChangedFile, RewindOutcome, RewindPoint, RewindScope, SessionEvent } from '../generated/protocol';
import type { FakeSession } from './fakeSession';

const promptId = (ordinal: number) => String(ordinal * 2);

function prompts(log: readonly SessionEvent[]): { ordinal: number; logIndex: number; prompt: string }[] {
  const found: { ordinal: number; logIndex: number; prompt: string }[] = [];
  log.forEach((event, logIndex) => {
    if (event.type === 'turn_started') found.push({ ordinal: found.length, logIndex, prompt: event.prompt });
  });
  return found;
}

/** Each path the session's turns from `ordinal` on changed, with the turn that changed it last. */
function changedSince(session: FakeSession, ordinal: number): Map<string, Map<string, string>> {
  const changed = new Map<string, Map<string, string>>();
  const turns = [...session.checkpoints].filter(([at]) => at >= ordinal).sort(([a], [b]) => a - b);
  for (const [, { before, after }] of turns) {
    const end = after ?? session.files;
    for (const path of new Set([...before.keys(), ...end.keys()])) {
      if (before.get(path) !== end.get(path)) changed.set(path, end);
    }
  }
  return changed;
}

export function rewindPoints(session: FakeSession): RewindPoint[] {
  return prompts(session.log).map(({ ordinal, prompt }) => ({
    prompt_id: promptId(ordinal),
    prompt: Array.from(prompt).slice(0, 200).join(''),
    files_changed_since: [...changedSince(session, ordinal).keys()].sort(),
  }));
}

export function rewindSession(session: FakeSession, id: string, scope: RewindScope, force: boolean): RewindOutcome {
  if (session.isRunning) throw { code: 'rewind', message: 'A turn is running' };
  const all = prompts(session.log);
  const target = all.find((each) => promptId(each.ordinal) === id);
  if (!target) throw { code: 'rewind', message: `prompt ${id} is not a prompt of this session (see the list of rewind points)` };
  const outcome: RewindOutcome = { restored: [], removed: [], conflicts: [], files_rewound: false, messages_removed: 0 };
  if (scope !== 'conversation') {
    const changed = changedSince(session, target.ordinal);
    outcome.conflicts = [...changed].filter(([path, end]) => end.get(path) !== session.files.get(path)).map(([path]) => path).sort();
    if (outcome.conflicts.length > 0 && !force) return outcome;
    const before = session.checkpoints.get(target.ordinal)?.before;
    for (const path of [...changed.keys()].sort()) {
      const old = before?.get(path);
      if (old === undefined) {
        session.files.delete(path);
        outcome.removed.push(path);
      } else {
        session.files.set(path, old);
        outcome.restored.push(path);
      }
    }
    outcome.files_rewound = true;
  }
  if (scope !== 'files') {
    outcome.messages_removed = (all.length - target.ordinal) * 2;
    session.log.splice(target.logIndex);
    for (const at of [...session.checkpoints.keys()]) if (at >= target.ordinal) session.checkpoints.delete(at);
    session.emit({ type: 'conversation_rewound', prompt_id: id });
  }
  return outcome;
}

/** Every file the session changed, with its content before the first turn that changed it and now. */
export function sessionChanges(session: FakeSession): ChangedFile[] {
  const changed = changedSince(session, 0);
  const turns = [...session.checkpoints].sort(([a], [b]) => a - b);
  return [...changed.keys()].sort().map((path) => {
    const first = turns.find(([, { before, after }]) => before.get(path) !== (after ?? session.files).get(path));
    return { path, before: first?.[1].before.get(path) ?? null, after: session.files.get(path) ?? null, omitted: null };
  });
}

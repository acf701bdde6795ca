// The mock backend of the e2e build: answers every Tauri command of the IPC contract with mockIPC
// and drives a FakeSession per opened folder. Folders whose path contains "missing" fail to open;
// "no-key" opens with a setup hint. `window.__tandemFake.emit` sends app-level (menu) events.
import { emit } from '@tauri-apps/api/event';
import { mockIPC } from '@tauri-apps/api/mocks';
import type { ApprovalAnswer, SessionInfo } from '../generated/protocol';
import { ChannelSender, isChannelArg } from './channel';
import { FakeSession } from './fakeSession';

export const FAKE_FOLDER = '/home/dev/projects/tandem';

type Args = Record<string, unknown>;

function text(args: Args, key: string): string {
  const value = args[key];
  if (typeof value !== 'string') throw { code: 'bad_request', message: `missing ${key}` };
  return value;
}

export function installFakeBackend(): void {
  const sessions = new Map<string, FakeSession>();
  let count = 0;

  const session = (args: Args): FakeSession => {
    const found = sessions.get(text(args, 'sessionId'));
    if (!found) throw { code: 'no_session', message: 'No such session' };
    return found;
  };

  mockIPC(
    (cmd, payload) => {
      const args = (payload ?? {}) as Args;
      switch (cmd) {
        case 'app_state':
          return { folder: null, recent: [FAKE_FOLDER, '/home/dev/projects/website', '/home/dev/src/notes'], version: '0.1.0' };
        case 'pick_folder':
          return FAKE_FOLDER;
        case 'open_session': {
          const path = text(args, 'path');
          if (path.includes('missing')) throw { code: 'folder_not_found', message: `Folder not found: ${path}` };
          if (!isChannelArg(args.onEvent)) throw { code: 'bad_request', message: 'missing onEvent' };
          const id = `session-${++count}`;
          sessions.set(id, new FakeSession(id, new ChannelSender(args.onEvent)));
          const info: SessionInfo = {
            session_id: id,
            cwd: path,
            folder_name: path.split('/').filter(Boolean).pop() ?? path,
            model: 'claude-sonnet-4-5',
            mode: 'default',
            setup_hint: path.includes('no-key')
              ? 'No API key found. Set ANTHROPIC_API_KEY in your environment or in ~/.claude/settings.json, then start a new session.'
              : null,
          };
          return info;
        }
        case 'send_prompt':
          session(args).startTurn(text(args, 'prompt'));
          return null;
        case 'answer_approval':
          session(args).answer(args.answer as ApprovalAnswer);
          return null;
        case 'interrupt':
          session(args).interrupt();
          return null;
        case 'set_mode':
          session(args);
          if (typeof args.mode !== 'string') throw { code: 'bad_request', message: 'missing mode' };
          return null;
        default:
          throw { code: 'unknown_command', message: `The fake backend has no command ${cmd}` };
      }
    },
    { shouldMockEvents: true },
  );

  Object.assign(window, {
    __tandemFake: {
      emit: (event: string, payload?: unknown) => emit(event, payload),
    },
  });
}

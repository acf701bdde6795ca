// Tests of the IPC wrappers against mockIPC: each command's name and argument names (the Rust
// side reads them in camelCase), the channel, the app-level events, and error messages.
import { mockIPC } from '@tauri-apps/api/mocks';
import { emit } from '@tauri-apps/api/event';
import { describe, expect, it, vi } from 'vitest';
import * as ipc from './ipc';
import { ChannelSender, isChannelArg } from './mock/channel';

type Call = { cmd: string; args: Record<string, unknown> };

function record(result: (cmd: string, args: Record<string, unknown>) => unknown = () => null): Call[] {
  const calls: Call[] = [];
  mockIPC(
    (cmd, payload) => {
      const args = (payload ?? {}) as Record<string, unknown>;
      calls.push({ cmd, args });
      return result(cmd, args);
    },
    { shouldMockEvents: true },
  );
  return calls;
}

describe('ipc', () => {
  it('names every command and argument as the backend expects', async () => {
    const calls = record((cmd) => (cmd === 'app_state' ? { folder: null, recent: [], version: '1' } : null));
    await ipc.appState();
    await ipc.pickFolder();
    await ipc.sendPrompt('s1', 'hi');
    await ipc.answerApproval({ request_id: 'r', choice: 'deny', message: 'no' });
    await ipc.interrupt('s1');
    await ipc.setMode('s1', 'plan');
    await ipc.rewindPoints('s1');
    await ipc.rewind('s1', '4', 'both', true);
    expect(calls).toEqual([
      { cmd: 'app_state', args: {} },
      { cmd: 'pick_folder', args: {} },
      { cmd: 'send_prompt', args: { sessionId: 's1', prompt: 'hi', images: null } },
      { cmd: 'answer_approval', args: { answer: { request_id: 'r', choice: 'deny', message: 'no' } } },
      { cmd: 'interrupt', args: { sessionId: 's1' } },
      { cmd: 'set_mode', args: { sessionId: 's1', mode: 'plan' } },
      { cmd: 'rewind_points', args: { sessionId: 's1' } },
      { cmd: 'rewind', args: { sessionId: 's1', promptId: '4', scope: 'both', force: true } },
    ]);
  });

  it('opens a session with a channel that delivers event batches in order', async () => {
    let sender: ChannelSender | null = null;
    const calls = record((cmd, args) => {
      if (cmd === 'open_session' && isChannelArg(args.onEvent)) sender = new ChannelSender(args.onEvent);
      return { session_id: 's1' };
    });
    const batches = vi.fn();
    const info = await ipc.openSession('/p', batches);
    expect(info).toEqual({ session_id: 's1' });
    expect(calls[0]?.args.path).toBe('/p');
    expect(calls[0]?.args.resume).toBeNull();
    const batch = { events: [{ session_id: 's1', seq: 0, event: { type: 'notice' as const, message: 'hi' } }] };
    (sender as ChannelSender | null)?.send(batch);
    expect(batches).toHaveBeenCalledWith(batch);
  });

  it('reopens a stored session and lists the folder’s sessions', async () => {
    const summary = { session_id: 'old', title: 'Fix it', updated_at_ms: 1, message_count: 2, pinned: false, archived: false, tags: [], collection_id: null };
    const calls = record((cmd) => (cmd === 'list_sessions' ? [summary] : { session_id: 'old' }));
    await ipc.openSession('/p', () => {}, 'old');
    expect(calls[0]?.args).toMatchObject({ path: '/p', resume: 'old' });
    expect(await ipc.listSessions('/p')).toEqual([summary]);
    expect(calls[1]).toEqual({ cmd: 'list_sessions', args: { path: '/p' } });
  });

  it('rejects with the backend error, and says it plainly', async () => {
    record(() => {
      throw { code: 'folder_not_found', message: 'Folder not found: /x' };
    });
    const error: unknown = await ipc.openSession('/x', () => {}).catch((cause: unknown) => cause);
    expect(ipc.isIpcError(error)).toBe(true);
    expect(ipc.errorMessage(error)).toBe('Folder not found: /x');
    expect(ipc.errorMessage(new Error('boom'))).toBe('boom');
    expect(ipc.errorMessage('text')).toBe('text');
    expect(ipc.errorMessage(42)).toBe('Unknown error');
  });

  it('listens to the menu events', async () => {
    record();
    const opened = vi.fn();
    const fresh = vi.fn();
    const unlisten = [await ipc.onOpenFolder(opened), await ipc.onNewSession(fresh)];
    await emit('tandem://open-folder', { path: '/chosen' });
    await emit('tandem://new-session');
    expect(opened).toHaveBeenCalledWith('/chosen');
    expect(fresh).toHaveBeenCalledTimes(1);
    for (const stop of unlisten) stop();
  });
});

// The mock backend of the e2e build: answers every Tauri command of the IPC contract with mockIPC
// and drives a FakeSession per opened folder. Folders whose path contains "missing" fail to open;
// "no-key" opens with a setup hint; "untrusted" opens untrusted, its settings granting a rule, a
// directory, a hook and an MCP server (`trust_folder` / `revoke_trust` change it). The fake project has two stored sessions; `list_sessions`
// lists them with the live ones, and `open_session` with `resume` replays a session's events (a live one's too: a
// reloaded window). Sessions stay open side by side, each playing its own turns at the same time; `open_session`
// with `replaces` and `close_session` stop a session's turn (its log is kept, so it can be reopened).
// `rewind_points` / `rewind` rewind a live session (fakeRewind.ts). `usage_report` and `budget_status` answer from
// fakeUsage.ts (the settings' budget: $5 a day and $100 a month, stopping), whose `/spend` turns warn of the daily
// budget and then are stopped by it. The rules and hooks panels' commands answer from
// fakeRules.ts, the plugins panel's from fakePlugins.ts (`.pluginWrites()` lists the switches written). `answer_elicitation` answers the form of a `/elicit` turn (fakeFormTurn.ts); `session_events` gives a session's
// events after a number, as the bridge does for a view that missed some.
// `window.__tandemFake.emit` sends app-level (menu) events; `.files()` returns the fake files;
// `.touch(path, content)` changes a fake file "outside Tandem"; `.storeLong(messages)` adds the stored session
// `stored-long` with that many messages (for measuring memory). `notify_person` keeps each desktop notification
// asked for; `.notices()` returns them; `open_user_file` keeps each file opened, `.openedFiles()` returns them. `search_sessions` searches every stored and live
// session (fakeSearch.ts), the website project's stored session among them; `.searchDelay(query, ms)` makes a query
// answer late and `.lateAnswers()` counts those answered. Collections, pins, tags and the archive are kept by
// fakeOrganise.ts. `export_session` and `import_sessions` are fakeCarry.ts's; `.exports()` lists the files
// exported. `agent_servers` lists the fake agents (`claude`, `scripted`, and `broken`, which cannot start;
// `.setAgents(names)` changes them) and `open_hosted_session` opens a fake session with one (model `acp:NAME`) or with a
// remote folder (model `acp:ssh://…`; a host with "unreachable" in it cannot be reached, one with "bare" has no
// Tandem, and the message names the install command). `.storeHosted()` adds stored sessions external agents ran (kept over a reload)
// (fakeStoredSessions.ts): `open_session` refuses them with code `hosted_session` unless `ownAgent`, and
// `open_hosted_session` with `resume` continues one with its agent — refused when the agent is no longer configured or
// is `scripted` (which cannot load sessions), or when a remote folder's host has "unreachable" in it. `send_prompt` with images to a `scripted` tab is refused, as the app
// refuses images an agent's promptCapabilities do not take. `clipboard_image` answers the image `.setClipboard(image)` put there (none at first).
// `send_prompt` takes images as the app does: one that is not a PNG, JPEG, GIF or WebP in base64 is
// refused (code `image`), and nothing is sent; the others show after the turn's start as `prompt_images`.
// `open_terminal`, `terminal_input`, `resize_terminal` and `close_terminal` drive a pretend shell per session
// (fakeTerminal.ts); `.terminal(sessionId)` tells the lines it ran, its size and whether it was closed.
import { emit } from '@tauri-apps/api/event';
import { mockIPC } from '@tauri-apps/api/mocks';
import type { AppSettings, AppSettingsUpdate, ApprovalAnswer, DecisionBehavior, ElicitationAnswer, FolderTrust, PromptImage, RewindScope, RuleScope, SessionEvent, SessionInfo, SessionSummary } from '../generated/protocol';
import { ChannelSender, isChannelArg, type ChannelArg } from './channel';
import { FAKE_ROOT, initialFiles } from './fakeProject';
import { rewindPoints, rewindSession, sessionChanges } from './fakeRewind';
import { FakeSession } from './fakeSession';
import { FakeTerminal } from './fakeTerminal';
import { FAKE_HOOK, FakeRules, fakeHookRun } from './fakeRules';
import { FakePlugins } from './fakePlugins';
import { FakeOrganise } from './fakeOrganise';
import { exportPath, importInto } from './fakeCarry';
import { fakeSearch, type Searchable } from './fakeSearch';
import { hostedStoredSessions, longStoredSession, storedSessions, websiteSession } from './fakeStoredSessions';

/** Set in sessionStorage once `.storeHosted()` ran, so that a reloaded page has the same stored sessions. */
const HOSTED_KEPT = 'tandem.fake.hosted';
import { budgetProblem, budgetStatuses, FAKE_LIMITS, usageReport } from './fakeUsage';

export const FAKE_FOLDER = FAKE_ROOT;

type Args = Record<string, unknown>;

function text(args: Args, key: string): string {
  const value = args[key];
  if (typeof value !== 'string') throw { code: 'bad_request', message: `missing ${key}` };
  return value;
}

/** The images of a `send_prompt`, checked as the app checks them (the engine decodes them; here the type and the
 * base64 alphabet stand in for that). */
function promptImages(value: unknown): PromptImage[] {
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value)) throw { code: 'bad_request', message: 'images is not a list' };
  return value.map((each: unknown, i) => {
    const image = each as Partial<PromptImage>;
    const types = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
    const base64 = typeof image.data === 'string' && image.data.length > 0 && /^[A-Za-z0-9+/]+=*$/.test(image.data);
    if (!types.includes(String(image.media_type)) || !base64) {
      throw { code: 'image', message: `image ${i + 1} is not an image that can be sent (PNG, JPEG, GIF or WebP)` };
    }
    return { media_type: String(image.media_type), data: String(image.data) };
  });
}

export function installFakeBackend(): void {
  const sessions = new Map<string, FakeSession>();
  const stored = [...storedSessions(Date.now()), websiteSession(Date.now())];
  // A page reloaded after `.storeHosted()` keeps those sessions (the real store outlives a reload too).
  if (sessionStorage.getItem(HOSTED_KEPT) === '1') stored.push(...hostedStoredSessions(Date.now()));
  /** Queries answered late, in ms. */
  const searchDelays = new Map<string, number>();
  const organised = new FakeOrganise();
  /** How many delayed queries have answered. */
  let lateAnswers = 0;
  const files = initialFiles();
  /** When each live session last changed, for the list's order. */
  const touched = new Map<string, number>();
  let count = 0;
  /** Untrusted folders the person trusted. */
  const trusted = new Set<string>();
  /** The folder of each opened session. */
  const folders = new Map<string, string>();
  const infos = new Map<string, SessionInfo>();
  let settings: AppSettings = {
    provider: 'anthropic',
    base_url: '',
    model: '',
    key_source: 'keyring',
    theme: 'dark',
    font_size: 14,
    overridden_by_env: [],
    base_url_in_use: 'https://api.anthropic.com',
    model_in_use: 'claude-sonnet-4-5',
    key_saved: true,
    notifications: true,
    budget: FAKE_LIMITS,
    file: '/home/dev/.config/tandem/settings.json',
  };
  /** The system clipboard's image (`.setClipboard`); null: it holds none. */
  let clipboard: { media_type: string; data: string } | null = null;
  /** The files exported, in order. */
  const exports: string[] = [];
  /** The desktop notifications asked for, in order. */
  const notices: { title: string; body: string }[] = [];
  const openedFiles: { path: string; reveal: boolean }[] = [];
  /** The rules the rules panel shows and edits. */
  const rules = new FakeRules();
  /** The agents under `agentServers` (`.setAgents` changes them). */
  let agents = ['claude', 'scripted', 'broken'];
  const plugins = new FakePlugins();
  /** Each session's terminal panel, once opened. */
  const terminals = new Map<string, FakeTerminal>();

  const summaries = (path: string): SessionSummary[] => {
    const live = [...sessions.values()].flatMap((each): SessionSummary[] => {
      if ((folders.get(each.id) ?? FAKE_FOLDER) !== path) return [];
      const prompts = each.log.filter((event) => event.type === 'turn_started');
      const first = prompts[0];
      if (!first || stored.some((old) => old.summary.session_id === each.id)) return [];
      return [{ session_id: each.id, title: first.prompt, updated_at_ms: touched.get(each.id) ?? Date.now(), message_count: prompts.length * 2, pinned: false, archived: false, tags: [], collection_id: null }];
    });
    const old = stored.filter((each) => (each.folder ?? FAKE_FOLDER) === path).map((each) => each.summary);
    return organised.apply([...live, ...old]);
  };

  /** Every session to search: the stored ones and the live ones with a prompt. */
  const searchable = (): Searchable[] => {
    const live = [...sessions.values()].flatMap((each): Searchable[] => {
      const first = each.log.find((event) => event.type === 'turn_started');
      if (!first || stored.some((old) => old.summary.session_id === each.id)) return [];
      return [{ sessionId: each.id, folder: folders.get(each.id) ?? FAKE_FOLDER, title: first.prompt, updatedAt: touched.get(each.id) ?? Date.now(), events: each.log }];
    });
    const old = stored.map((each) => ({
      sessionId: each.summary.session_id,
      folder: each.folder ?? FAKE_FOLDER,
      title: each.summary.title,
      updatedAt: each.summary.updated_at_ms,
      events: sessions.get(each.summary.session_id)?.log ?? each.events,
    }));
    return [...live, ...old];
  };

  /** The events a reopened session replays first. */
  const history = (id: string): SessionEvent[] =>
    sessions.get(id)?.log ?? stored.find((old) => old.summary.session_id === id)?.events ?? [];

  const session = (args: Args): FakeSession => {
    const found = sessions.get(text(args, 'sessionId'));
    if (!found) throw { code: 'no_session', message: 'No such session' };
    return found;
  };

  /** Opens a fake session on `path` (replaying `resume`'s events first) whose model is `model`. */
  const openFake = (path: string, onEvent: ChannelArg, resume: string | null, model: string): SessionInfo => {
    const id = resume ?? `session-${++count}`;
    const replay = resume ? history(resume) : [];
    const fake = new FakeSession(id, new ChannelSender(onEvent), files);
    for (const event of replay) fake.emit(event);
    sessions.set(id, fake);
    folders.set(id, path);
    const hosted = model.startsWith('acp:');
    const info: SessionInfo = {
      session_id: id,
      cwd: path,
      folder_name: path.split('/').filter(Boolean).pop() ?? path,
      model,
      mode: 'default',
      setup_hint:
        path.includes('no-key') && !hosted
          ? 'No API key found. Set ANTHROPIC_API_KEY in your environment or in ~/.claude/settings.json, then start a new session.'
          : null,
      trust: folderTrust(path, trusted.has(path) || !path.includes('untrusted')),
      context_window: 200_000,
      compact_at_percent: 80,
      auto_mode_available: !path.includes('no-key') && !hosted,
      terminal_panel: !hosted,
    };
    infos.set(id, info);
    return info;
  };

  mockIPC(
    (cmd, payload) => {
      const args = (payload ?? {}) as Args;
      switch (cmd) {
        case 'app_state':
          return { folder: null, remote: null, recent: [FAKE_FOLDER, '/home/dev/projects/website', '/home/dev/src/notes'], version: '0.1.0' };
        case 'pick_folder':
          return FAKE_FOLDER;
        case 'app_settings':
          return settings;
        case 'save_app_settings': {
          const update = args.update as AppSettingsUpdate;
          const refused = update.budget ? budgetProblem(update.budget) : null;
          if (refused) throw { code: 'settings', message: refused };
          settings = { ...settings, provider: update.provider, base_url: update.base_url, model: update.model, theme: update.theme, font_size: update.font_size, notifications: update.notifications ?? settings.notifications, budget: update.budget ?? settings.budget };
          for (const [id, info] of infos) infos.set(id, { ...info, model: update.model || info.model, setup_hint: null });
          return { settings, sessions: [...infos.values()] };
        }
        case 'export_session': {
          const id = text(args, 'sessionId');
          const found = stored.find((old) => old.summary.session_id === id)?.summary ?? summaries(folders.get(id) ?? FAKE_FOLDER).find((each) => each.session_id === id);
          if (!found) throw { code: 'unknown_session', message: `no session with id ${id}` };
          const path = exportPath(found.title, text(args, 'format'));
          exports.push(path);
          return path;
        }
        case 'clipboard_image':
          return clipboard;
        case 'import_sessions':
          return importInto(stored, args.claudeCode === true, Date.now());
        case 'notify_person':
          notices.push({ title: text(args, 'title'), body: text(args, 'body') });
          return null;
        case 'open_user_file':
          openedFiles.push({ path: text(args, 'path'), reveal: args.reveal === true });
          return null;
        case 'open_session': {
          const path = text(args, 'path');
          if (path.includes('missing')) throw { code: 'folder_not_found', message: `Folder not found: ${path}` };
          if (!isChannelArg(args.onEvent)) throw { code: 'bad_request', message: 'missing onEvent' };
          const resume = typeof args.resume === 'string' ? args.resume : null;
          if (typeof args.replaces === 'string') sessions.get(args.replaces)?.interrupt();
          if (resume && !sessions.has(resume) && !stored.some((old) => old.summary.session_id === resume)) {
            throw { code: 'no_session', message: `No stored session ${resume}` };
          }
          const ranBy = resume && !sessions.has(resume) ? stored.find((old) => old.summary.session_id === resume)?.model : undefined;
          if (ranBy?.startsWith('acp:') && args.ownAgent !== true) {
            throw { code: 'hosted_session', message: `session ${resume} was run by ${ranBy.slice(4)}: it goes on with that agent` };
          }
          return openFake(path, args.onEvent, resume, 'claude-sonnet-4-5');
        }
        case 'agent_servers':
          return { names: [...agents], problem: null, settings_file: settings.file };
        case 'open_hosted_session': {
          if (!isChannelArg(args.onEvent)) throw { code: 'bad_request', message: 'missing onEvent' };
          const path = typeof args.path === 'string' ? args.path : '/home/dev';
          if (typeof args.resume === 'string') {
            const resume = args.resume;
            const old = stored.find((each) => each.summary.session_id === resume);
            const agent = old?.model?.slice('acp:'.length);
            if (!old || !agent) throw { code: 'agent', message: `session ${resume} was run by Tandem's own agent, not by an external one` };
            if (agent.startsWith('ssh://')) {
              const host = agent.slice('ssh://'.length).split('/')[0] ?? '';
              if (host.includes('unreachable')) {
                throw { code: 'agent', message: `ssh could not reach ${host} (its own message is above); \`ssh ${host}\` must log in without asking anything (keys or an agent, a known host key)` };
              }
              return openFake(old.folder ?? FAKE_FOLDER, args.onEvent, resume, old.model ?? `acp:${agent}`);
            }
            if (!agents.includes(agent)) {
              throw { code: 'agent', message: `the agent \`${agent}\` that ran this session is no longer configured under \`agentServers\` (no agent named \`${agent}\` in agentServers (known: ${agents.join(', ') || 'none'}))` };
            }
            if (agent === 'scripted') {
              throw { code: 'agent', message: 'the agent `scripted` cannot continue its session: it does not offer `session/load` (a new session of it would not know the earlier turns)' };
            }
            return openFake(old.folder ?? FAKE_FOLDER, args.onEvent, resume, `acp:${agent}`);
          }
          if (typeof args.agent === 'string') {
            const name = args.agent;
            if (!agents.includes(name)) throw { code: 'agent', message: `no agent named \`${name}\` in agentServers (known: ${agents.join(', ') || 'none'})` };
            if (name === 'broken') throw { code: 'agent', message: 'the agent `broken` (broken-agent) cannot be started: No such file or directory (os error 2)' };
            return openFake(path, args.onEvent, null, `acp:${name}`);
          }
          const url = text(args, 'remote');
          const host = url.slice('ssh://'.length).split('/')[0] ?? '';
          if (host.includes('unreachable')) {
            throw { code: 'agent', message: `ssh could not reach ${host} (its own message is above); \`ssh ${host}\` must log in without asking anything (keys or an agent, a known host key)` };
          }
          if (host.includes('bare')) {
            throw {
              code: 'agent',
              message: `${host} has no \`tandem\` on the PATH its ssh commands see (nor in ~/.local/bin); install this one there with:\n  ssh ${host} 'mkdir -p ~/.local/bin && cat > ~/.local/bin/tandem && chmod +x ~/.local/bin/tandem' < "$(command -v tandem)"`,
            };
          }
          return openFake(path, args.onEvent, null, `acp:${url}`);
        }
        case 'close_session':
          // Like the app: a running turn stops; closing a session that is not open does nothing.
          sessions.get(text(args, 'sessionId'))?.interrupt();
          return null;
        case 'session_events':
          return session(args).eventsAfter(typeof args.afterSeq === 'number' ? args.afterSeq : null);
        case 'list_sessions':
          return summaries(text(args, 'path'));
        case 'list_collections':
          return organised.collections(text(args, 'path'));
        case 'create_collection':
          return organised.create(text(args, 'path'), text(args, 'name'), typeof args.parentId === 'number' ? args.parentId : null);
        case 'rename_collection':
          organised.rename(args.id as number, text(args, 'name'));
          return null;
        case 'delete_collection':
          organised.delete(args.id as number);
          return null;
        case 'move_session':
          organised.change(text(args, 'sessionId'), { collection_id: typeof args.collectionId === 'number' ? args.collectionId : null });
          return null;
        case 'set_session_pinned':
          organised.change(text(args, 'sessionId'), { pinned: args.pinned === true });
          return null;
        case 'set_session_archived':
          organised.change(text(args, 'sessionId'), { archived: args.archived === true });
          return null;
        case 'set_session_tags': {
          const tags = [...new Set((args.tags as string[]).map((tag) => tag.trim().toLowerCase()).filter(Boolean))].sort();
          organised.change(text(args, 'sessionId'), { tags });
          return tags;
        }
        case 'search_sessions': {
          const query = text(args, 'query');
          const hits = fakeSearch(searchable(), query);
          const delay = searchDelays.get(query.trim());
          if (!delay) return hits;
          return new Promise((resolve) =>
            setTimeout(() => {
              lateAnswers += 1;
              resolve(hits);
            }, delay),
          );
        }
        case 'send_prompt': {
          const images = promptImages(args.images);
          if (images.length > 0 && infos.get(text(args, 'sessionId'))?.model === 'acp:scripted') {
            throw { code: 'image', message: 'scripted does not take images (its ACP promptCapabilities offer no `image`): remove them to send the prompt, or describe what they show' };
          }
          session(args).startTurn(text(args, 'prompt'), images);
          touched.set(text(args, 'sessionId'), Date.now());
          return null;
        }
        case 'answer_approval': {
          // As in the app, the request's id names the session that asked.
          const answer = args.answer as ApprovalAnswer;
          const asking = [...sessions.values()].find((each) => each.asks(answer.request_id));
          if (!asking) throw { code: 'no_request', message: `No pending request ${answer.request_id}` };
          asking.answer(answer);
          return null;
        }
        case 'answer_elicitation': {
          const answer = args.answer as ElicitationAnswer;
          const asking = [...sessions.values()].find((each) => each.asksForm(answer.request_id));
          if (!asking) throw { code: 'no_request', message: `No pending form ${answer.request_id}` };
          asking.answerForm(answer);
          return null;
        }
        case 'interrupt':
          session(args).interrupt();
          return null;
        case 'stop_sub_agent':
          session(args);
          return false;
        case 'send_to_background':
          session(args);
          return 0;
        case 'background_shell_output':
          session(args);
          return null;
        case 'stop_background_shell':
          session(args);
          return false;
        case 'open_terminal': {
          session(args);
          if (!isChannelArg(args.onOutput)) throw { code: 'bad_request', message: 'missing onOutput' };
          const id = text(args, 'sessionId');
          const existing = terminals.get(id);
          const terminal = existing && !existing.closed ? existing : new FakeTerminal();
          terminals.set(id, terminal);
          return terminal.open(args.onOutput, Number(args.rows), Number(args.cols));
        }
        case 'terminal_input': {
          const terminal = terminals.get(text(args, 'sessionId'));
          if (!terminal || terminal.closed) throw { code: 'terminal', message: 'the person has not opened a terminal' };
          terminal.input(text(args, 'data'));
          return null;
        }
        case 'resize_terminal': {
          const terminal = terminals.get(text(args, 'sessionId'));
          if (!terminal || terminal.closed) throw { code: 'terminal', message: 'the person has not opened a terminal' };
          terminal.size = { rows: Number(args.rows), cols: Number(args.cols) };
          return null;
        }
        case 'close_terminal': {
          const terminal = terminals.get(text(args, 'sessionId'));
          if (terminal) terminal.closed = true;
          return null;
        }
        case 'set_mode':
          session(args);
          if (typeof args.mode !== 'string') throw { code: 'bad_request', message: 'missing mode' };
          return null;
        case 'trust_folder':
        case 'revoke_trust': {
          session(args);
          const path = folders.get(text(args, 'sessionId')) ?? FAKE_FOLDER;
          if (cmd === 'trust_folder') trusted.add(path);
          else trusted.delete(path);
          return folderTrust(path, cmd === 'trust_folder');
        }
        case 'kept_worktrees':
          session(args);
          return [];
        case 'slash_commands':
          session(args);
          return [
            { name: 'compact', description: 'Summarise the conversation now to free context', argument_hint: '[focus]', source: 'builtin' },
            { name: 'model', description: "Show the model and the choices, or switch this session's model", argument_hint: '[name]', source: 'builtin' },
            { name: 'review', description: 'Review a file for bugs', argument_hint: '<file> [focus]', source: 'project' },
            { name: 'release-notes', description: 'Write the release notes from the merged changes', argument_hint: null, source: 'skill' },
          ];
        case 'complete_mention': {
          session(args);
          const query = text(args, 'query').toLowerCase();
          const files = ['README.md', 'src/main.rs', 'src/lib.rs', 'src/server.rs', 'docs/design notes.md'];
          return files
            .filter((file) => file.toLowerCase().includes(query))
            .map((file) => ({ text: file.includes(' ') ? `"${file}"` : file, kind: 'file', detail: null }));
        }
        case 'mcp_servers':
          session(args);
          return [];
        case 'rules_view': {
          session(args);
          const path = folders.get(text(args, 'sessionId')) ?? FAKE_FOLDER;
          return rules.view(trusted.has(path) || !path.includes('untrusted'));
        }
        case 'add_rule':
          session(args);
          rules.add(text(args, 'scope') as RuleScope, text(args, 'behavior') as DecisionBehavior, text(args, 'rule'));
          return null;
        case 'remove_rule':
          session(args);
          rules.remove(text(args, 'scope') as RuleScope, text(args, 'behavior') as DecisionBehavior, text(args, 'rule'));
          return null;
        case 'move_rule':
          session(args);
          rules.move(text(args, 'from') as RuleScope, text(args, 'to') as RuleScope, text(args, 'behavior') as DecisionBehavior, text(args, 'rule'));
          return null;
        case 'check_call':
          session(args);
          return rules.check(text(args, 'tool'), args.input);
        case 'hooks_view':
          session(args);
          return [FAKE_HOOK];
        case 'plugins_view':
          session(args);
          return plugins.list();
        case 'set_plugin_enabled':
          session(args);
          return plugins.setEnabled(text(args, 'id'), args.enabled === true);
        case 'test_hook':
          session(args);
          if (text(args, 'command') !== FAKE_HOOK.command) throw { code: 'hooks', message: `no ${text(args, 'event')} hook runs \`${text(args, 'command')}\`` };
          return fakeHookRun(args.input);
        case 'session_changes':
          return sessionChanges(session(args));
        case 'rewind_points':
          return rewindPoints(session(args));
        case 'rewind': {
          const scope = text(args, 'scope');
          if (scope !== 'files' && scope !== 'conversation' && scope !== 'both') throw { code: 'bad_request', message: `bad scope ${scope}` };
          return rewindSession(session(args), text(args, 'promptId'), scope satisfies RewindScope, args.force === true);
        }
        case 'usage_report':
          return usageReport(typeof args.since === 'string' ? args.since : null, new Date(), settings.budget);
        case 'budget_status':
          return budgetStatuses(settings.budget);
        default:
          throw { code: 'unknown_command', message: `The fake backend has no command ${cmd}` };
      }
    },
    { shouldMockEvents: true },
  );

  Object.assign(window, {
    __tandemFake: {
      emit: (event: string, payload?: unknown) => emit(event, payload),
      files: () => Object.fromEntries(files),
      touch: (path: string, content: string) => files.set(path, content),
      notices: () => [...notices],
      openedFiles: () => [...openedFiles],
      exports: () => [...exports],
      pluginWrites: () => [...plugins.writes],
      setClipboard: (image: { media_type: string; data: string } | null) => {
        clipboard = image;
      },
      searchDelay: (query: string, ms: number) => searchDelays.set(query, ms),
      setAgents: (names: string[]) => {
        agents = [...names];
      },
      lateAnswers: () => lateAnswers,
      terminal: (sessionId: string) => {
        const terminal = terminals.get(sessionId);
        return terminal ? { ran: [...terminal.ran], size: terminal.size, closed: terminal.closed } : null;
      },
      storeHosted: () => {
        stored.push(...hostedStoredSessions(Date.now()));
        sessionStorage.setItem(HOSTED_KEPT, '1');
      },
      storeLong: (messages: number) => {
        stored.push(longStoredSession(Date.now(), messages));
      },
    },
  });
}

/** What trusting `path` enables: nothing for the ordinary fake project, one of each grant for an untrusted one. */
function folderTrust(path: string, isTrusted: boolean): FolderTrust {
  const grants = path.includes('untrusted');
  return {
    trusted: isTrusted,
    allow_rules: grants ? ['Bash(npm run test:*)', 'Bash(make build)'] : [],
    directories: grants ? ['/home/dev/shared-assets'] : [],
    hooks: grants ? ['PreToolUse (Bash): ./scripts/audit-command.sh'] : [],
    mcp_servers: grants ? ['postgres: npx @modelcontextprotocol/server-postgres postgres://localhost/app'] : [],
  };
}

// The fake backend's plugins panel: two installed plugins (one on in the project's local settings, one off and
// named by no file) and one whose manifest is broken; `set_plugin_enabled` flips one in memory and records which
// settings file it went to, as the engine writes `enabledPlugins` there.
import type { PluginListing } from '../generated/protocol';
import { FAKE_ROOT } from './fakeProject';

const LOCAL = `${FAKE_ROOT}/.claude/settings.local.json`;
const USER = '/home/dev/.claude/settings.json';

function initial(): PluginListing[] {
  return [
    {
      id: 'broken@tools-market',
      name: 'broken',
      marketplace: 'tools-market',
      version: '0.1.0',
      description: null,
      author: null,
      enabled: false,
      decided_by: null,
      switchable: true,
      loaded: false,
      waits_for_trust: false,
      counts: { skills: 0, commands: 0, agents: 0, hooks: 0, mcp_servers: 0, lsp_servers: 0 },
      problems: ['its manifest cannot be used: the manifest has no `name`; it is not loaded'],
    },
    {
      id: 'review-kit@tools-market',
      name: 'review-kit',
      marketplace: 'tools-market',
      version: '1.2.0',
      description: 'Review checklists, a reviewer agent and a formatting hook',
      author: 'Tools team',
      enabled: true,
      decided_by: LOCAL,
      switchable: true,
      loaded: true,
      waits_for_trust: false,
      counts: { skills: 2, commands: 1, agents: 1, hooks: 1, mcp_servers: 1, lsp_servers: 0 },
      problems: [],
    },
    {
      id: 'go-lsp@tools-market',
      name: 'go-lsp',
      marketplace: 'tools-market',
      version: '0.4.1',
      description: 'The Go language server',
      author: null,
      enabled: false,
      decided_by: null,
      switchable: true,
      loaded: true,
      waits_for_trust: false,
      counts: { skills: 0, commands: 0, agents: 0, hooks: 0, mcp_servers: 0, lsp_servers: 1 },
      problems: [],
    },
  ].sort((a, b) => a.id.localeCompare(b.id));
}

export class FakePlugins {
  private plugins = initial();
  /** Each switch: the plugin, the value and the file written. */
  readonly writes: { id: string; enabled: boolean; file: string }[] = [];

  list(): PluginListing[] {
    return this.plugins.map((plugin) => ({ ...plugin }));
  }

  setEnabled(id: string, enabled: boolean): PluginListing[] {
    const plugin = this.plugins.find((p) => p.id === id);
    if (!plugin) throw { code: 'settings', message: `the plugin was not switched: no installed plugin is called ${id}` };
    const file = plugin.decided_by ?? USER;
    plugin.enabled = enabled;
    plugin.decided_by = file;
    this.writes.push({ id, enabled, file });
    return this.list();
  }
}

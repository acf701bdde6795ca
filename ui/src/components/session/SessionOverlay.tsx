// The session's dialog or panel on screen (useOverlays decides which): trust, the bypass confirmation, the changes
// view, the MCP, rules, hooks or plugins panel, the usage view, each given the session's commands it needs.
import { useMemo } from 'react';
import type { Overlays } from '../../hooks/session/useOverlays';
import type { ChangedFile, DecisionBehavior, PermissionMode, RuleScope } from '../../generated/protocol';
import * as ipc from '../../ipc';
import { pastCalls } from '../../state/rulesPanel';
import type { Session } from '../../state/session';
import { BypassConfirm } from '../dialogs/BypassConfirm';
import { TrustDialog } from '../dialogs/TrustDialog';
import { ChangesView } from '../panels/ChangesView';
import { HooksPanel } from '../panels/HooksPanel';
import { McpPanel } from '../panels/McpPanel';
import { PluginsPanel } from '../panels/PluginsPanel';
import { RulesPanel } from '../panels/RulesPanel';
import { UsageView } from '../usage/UsageView';

export type SessionOverlayProps = {
  session: Session;
  overlays: Overlays;
  /** The mode in force, kept when bypass is declined. */
  mode: PermissionMode;
  setTrust: (trusted: boolean) => Promise<void>;
  changes: () => Promise<ChangedFile[]>;
};

/** The usage of every folder (the view is the person's spending, not one folder's). */
const loadUsage = (since: string | null) => ipc.usageReport(since, null);

/** The panels' commands on session `id` (one set per session, so their loads run once). */
function panelCommands(id: string) {
  return {
    mcp: {
      load: () => ipc.mcpServers(id),
      approve: (name: string, approved: boolean) => ipc.approveMcpServer(id, name, approved),
      reconnect: (name: string) => ipc.reconnectMcpServer(id, name),
      signIn: (name: string) => ipc.signInMcpServer(id, name),
      toggleTool: (tool: string, enabled: boolean) => ipc.setMcpToolEnabled(id, tool, enabled),
    },
    rules: {
      load: () => ipc.rulesView(id),
      add: (scope: RuleScope, behavior: DecisionBehavior, rule: string) => ipc.addRule(id, scope, behavior, rule),
      remove: (scope: RuleScope, behavior: DecisionBehavior, rule: string) => ipc.removeRule(id, scope, behavior, rule),
      move: (from: RuleScope, to: RuleScope, behavior: DecisionBehavior, rule: string) => ipc.moveRule(id, from, to, behavior, rule),
      check: (tool: string, input: unknown) => ipc.checkCall(id, tool, input),
    },
    hooks: {
      load: () => ipc.hooksView(id),
      test: (event: string, command: string, input: unknown) => ipc.testHook(id, event, command, input),
    },
    plugins: {
      load: () => ipc.pluginsView(id),
      setEnabled: (pluginId: string, enabled: boolean) => ipc.setPluginEnabled(id, pluginId, enabled),
    },
    worktrees: {
      load: () => ipc.keptWorktrees(id),
      settle: (branch: string, merge: boolean) => ipc.settleWorktree(id, branch, merge),
    },
  };
}

export function SessionOverlay({ session, overlays, mode, setTrust, changes }: SessionOverlayProps) {
  const { info, transcript } = session;
  const commands = useMemo(() => panelCommands(info.session_id), [info.session_id]);
  const { shown, close } = overlays;
  switch (shown) {
    case 'trust':
      return <TrustDialog folderName={info.folder_name} trust={info.trust} onChange={setTrust} onClose={() => close('trust')} />;
    case 'bypass':
      return <BypassConfirm current={mode} onConfirm={overlays.confirmBypass} onCancel={overlays.cancelBypass} />;
    case 'changes':
      return <ChangesView load={changes} root={info.cwd} onClose={() => close('changes')} worktrees={commands.worktrees} />;
    case 'mcp':
      return <McpPanel live={transcript.mcpServers} {...commands.mcp} onClose={() => close('mcp')} />;
    case 'rules':
      return (
        <RulesPanel
          {...commands.rules}
          revokeTrust={() => setTrust(false)}
          calls={pastCalls(transcript.items)}
          root={info.cwd}
          onClose={() => close('rules')}
        />
      );
    case 'hooks':
      return <HooksPanel {...commands.hooks} root={info.cwd} onClose={() => close('hooks')} />;
    case 'plugins':
      return <PluginsPanel {...commands.plugins} root={info.cwd} onClose={() => close('plugins')} />;
    case 'usage':
      return <UsageView load={loadUsage} onClose={() => close('usage')} />;
    case null:
      return null;
  }
}

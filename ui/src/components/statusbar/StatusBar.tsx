// The status bar under the prompt: mode switcher, folder trust, model, tokens and cost (opening the usage view), the
// budgets with today's and this month's spend (warning before the limit, and saying when the budget stopped a turn),
// and — while a turn runs — a working indicator and the stop button (Esc).
import type { BudgetStatus, McpServerStatus, PermissionMode } from '../../generated/protocol';
import { formatCost, formatTokens } from '../../format';
import type { UsageTotals } from '../../state/transcript';
import { BudgetMeters } from './BudgetMeters';
import { ModeSwitcher } from './ModeSwitcher';

export type StatusBarProps = {
  mode: PermissionMode;
  /** The modes the session offers (the switcher's menu and Shift+Tab's cycle). */
  modes: readonly PermissionMode[];
  onModeChange: (mode: PermissionMode) => void;
  model: string;
  usage: UsageTotals | null;
  running: boolean;
  onStop: () => void;
  /** Whether the folder is trusted; the badge opens the trust dialog. */
  trusted: boolean;
  onTrustClick: () => void;
  /** Opens the view of every file the session changed. */
  onChangesClick: () => void;
  /** The model's context window (tokens) and the percent at which the conversation is compacted. */
  contextWindow: number;
  compactAtPercent: number;
  /** The MCP servers as last reported; the badge opens the MCP panel. */
  mcpServers: Readonly<Record<string, McpServerStatus>>;
  onMcpClick: () => void;
  /** Opens the rules panel. */
  onRulesClick: () => void;
  /** Opens the hooks panel. */
  onHooksClick: () => void;
  /** Opens the plugins panel. */
  onPluginsClick?: () => void;
  /** Opens the settings dialog (model, key, theme, font size). */
  onSettingsClick?: () => void;
  /** The budgets of the settings with what was spent in their period (none: no budget is set). */
  budgets?: readonly BudgetStatus[];
  /** The notice of a turn the budget stopped, if the last turn was. */
  budgetStopped?: string | null;
  /** Opens the usage view (the cost and the budgets are its buttons). */
  onUsageClick?: () => void;
};

export function StatusBar({
  mode,
  modes,
  onModeChange,
  model,
  usage,
  running,
  onStop,
  trusted,
  onTrustClick,
  onChangesClick,
  contextWindow,
  compactAtPercent,
  mcpServers,
  onMcpClick,
  onRulesClick,
  onHooksClick,
  onPluginsClick,
  onSettingsClick,
  budgets = [],
  budgetStopped = null,
  onUsageClick,
}: StatusBarProps) {
  const servers = Object.values(mcpServers);
  const ready = servers.filter((server) => server.state.state === 'ready').length;
  const attention = servers.some((server) => server.state.state === 'failed' || server.state.state === 'needs_approval');
  const session = usage?.session;
  const input = session
    ? session.input_tokens + session.cache_read_input_tokens + session.cache_creation_input_tokens
    : 0;
  return (
    <footer className="status-bar">
      <div className="status-group status-left">
        <ModeSwitcher mode={mode} modes={modes} onChange={onModeChange} />
        <button
          type="button"
          className={`status-item status-trust ${trusted ? 'status-trust-yes' : 'status-trust-no'}`}
          data-testid="trust-badge"
          title={trusted ? "This folder's settings apply in full: click to review or revoke" : "This folder's allow rules, hooks and MCP servers wait until you trust it"}
          onClick={onTrustClick}
        >
          {trusted ? 'Trusted folder' : 'Untrusted folder'}
        </button>
        <button type="button" className="status-item status-trust" data-testid="changes-button" title="Every file this session changed" onClick={onChangesClick}>
          Changes
        </button>
        <button
          type="button"
          className={`status-item status-trust${attention ? ' status-trust-no' : ''}`}
          data-testid="mcp-button"
          title="MCP servers"
          onClick={onMcpClick}
        >
          MCP{servers.length > 0 ? ` ${ready}/${servers.length}` : ''}
        </button>
        <button type="button" className="status-item status-trust" data-testid="rules-button" title="Permission rules" onClick={onRulesClick}>
          Rules
        </button>
        <button type="button" className="status-item status-trust" data-testid="hooks-button" title="Hooks" onClick={onHooksClick}>
          Hooks
        </button>
        {onPluginsClick && (
          <button type="button" className="status-item status-trust" data-testid="plugins-button" title="Plugins" onClick={onPluginsClick}>
            Plugins
          </button>
        )}
      </div>
      <div className="status-group status-right">
        {running && (
          <span className="statusbar-running" data-testid="running-indicator">
            <span className="pulse" aria-hidden="true" />
            Working
          </span>
        )}
        <ContextMeter usage={usage} window={contextWindow} compactAt={compactAtPercent} />
        {onSettingsClick ? (
          <button
            type="button"
            className="status-item status-trust status-model"
            data-testid="model-name"
            title={`Model ${model}: click to change the model, key or looks`}
            onClick={onSettingsClick}
          >
            {model}
          </button>
        ) : (
          <span className="status-item status-model" data-testid="model-name" title={`Model ${model}`}>
            {model}
          </span>
        )}
        <span
          className="status-item"
          data-testid="token-usage"
          title={session ? `Cache read ${formatTokens(session.cache_read_input_tokens)}, cache write ${formatTokens(session.cache_creation_input_tokens)}` : 'No tokens used yet'}
        >
          ↑ {formatTokens(input)} ↓ {formatTokens(session?.output_tokens ?? 0)}
        </span>
        <BudgetMeters budgets={budgets} stopped={budgetStopped} onClick={onUsageClick} />
        {onUsageClick ? (
          <button type="button" className="status-item status-trust" data-testid="cost" title="Cost of this session: click for usage by day, folder, model and tool call" onClick={onUsageClick}>
            {formatCost(usage?.costUsd ?? 0)}
          </button>
        ) : (
          <span className="status-item" data-testid="cost" title="Cost of this session">
            {formatCost(usage?.costUsd ?? 0)}
          </span>
        )}
        {running && (
          <button type="button" className="button button-stop" data-testid="stop-button" onClick={onStop} title="Stop (Esc)">
            <span className="stop-square" aria-hidden="true" />
            Stop
            <kbd>Esc</kbd>
          </button>
        )}
      </div>
    </footer>
  );
}

/**
 * How full the model's context is after the last request (its input, cached and new, and its output),
 * against the window; amber from 10 points below the compaction threshold.
 */
function ContextMeter({ usage, window, compactAt }: { usage: UsageTotals | null; window: number; compactAt: number }) {
  if (window <= 0) return null;
  const last = usage?.turn;
  const used = last
    ? last.input_tokens + last.cache_read_input_tokens + last.cache_creation_input_tokens + last.output_tokens
    : 0;
  const percent = Math.min(100, Math.round((used / window) * 100));
  const level = compactAt > 0 && percent >= compactAt - 10 ? 'near' : 'ok';
  return (
    <span
      className={`status-item context-meter context-${level}`}
      data-testid="context-meter"
      data-percent={percent}
      title={`Context: ${formatTokens(used)} of ${formatTokens(window)} tokens; the conversation is compacted at ${compactAt}%`}
    >
      <span className="context-bar" aria-hidden="true">
        <span className="context-fill" style={{ width: `${percent}%` }} />
      </span>
      {percent}%
    </span>
  );
}

// One tool call in the transcript: status icon, title, the permission decision's reason and what
// decided it, live progress (a shell call's terminal output through ShellOutput), the facts of its
// result's typed detail, a sub-agent's own conversation (SubAgentTranscript), what the language servers said a file
// change broke, the diff of a completed file change (ToolDiff), a browser screenshot's picture, and the result, whose
// full content expands. A running shell call offers to move its command to the background. It switches on the kind
// of work (hints) and the detail's tag, never on tool names.
import { memo, useContext } from 'react';
import { prettyJson } from '../../format';
import { decisionSourceText } from '../../state/decisionSource';
import { useExpanded } from '../../state/expansion';
import { resultDiff } from '../../state/fileChange';
import { ShellControlsContext } from '../../state/shells';
import { originLabel } from '../../state/teams';
import { detailLine } from '../../state/toolDetail';
import type { ToolCall } from '../../state/transcript';
import { STATE_LABELS, visualState, type ToolVisualState } from '../../state/toolState';
import { Chevron } from '../common/Chevron';
import { ShellOutput } from './ShellOutput';
import { StatusIcon } from './StatusIcon';
import { InnerCalls } from './InnerCalls';
import { SubAgentTranscript } from './SubAgentTranscript';
import { SandboxNotice } from './SandboxNotice';
import { ToolDiff } from './ToolDiff';

/** Result text longer than this is cut when shown, to keep the transcript fast. */
const MAX_SHOWN = 20_000;

export const ToolCallView = memo(function ToolCallView({ call }: { call: ToolCall }) {
  const [open, toggle] = useExpanded(`tool:${call.id}`);
  const state = visualState(call);
  const title = call.hints?.title ?? call.name;
  const showName = !title.startsWith(call.name);
  const isShell = call.hints?.kind === 'shell';
  const diff = resultDiff(call);
  const facts = call.result?.detail ? detailLine(call.result.detail) : null;
  const decidedBy = call.decision ? decisionSourceText(call.decision) : null;
  const failed = state === 'error' || state === 'denied';
  const firstLine = call.result?.content.split('\n', 1)[0] ?? '';
  const detail = call.result?.detail;
  const changedBy = detail?.type === 'file_change' ? (detail.changed_by ?? null) : null;
  const diagnostics = detail?.type === 'file_change' ? (detail.diagnostics ?? null) : null;
  const screenshot = detail?.type === 'web_browser' ? (detail.preview ?? null) : null;
  const shells = useContext(ShellControlsContext);

  return (
    <div
      className={`tool-call state-${state}`}
      data-testid="tool-call"
      data-tool-name={call.name}
      data-status={call.status}
      data-outcome={call.result?.outcome ?? 'none'}
      data-state={state}
    >
      <button type="button" className="tool-head" aria-expanded={open} onClick={toggle}>
        <StatusIcon state={state} />
        {showName && <span className="tool-name">{call.name}</span>}
        <span className="tool-title">{title}</span>
        {state !== 'success' && <span className="tool-state-label">{STATE_LABELS[state]}</span>}
        <Chevron open={open} />
      </button>
      {call.decision?.reason && decisionWorthShowing(call) && (
        <div className={`tool-decision decision-${decisionTone(call, state)}`} data-testid="tool-decision">
          {decisionText(call.decision.reason, decisionTone(call, state))}
          {decidedBy && <span className="tool-decision-source"> · {decidedBy}</span>}
        </div>
      )}
      {isShell && state === 'running' && shells && (
        <div className="tool-running-actions">
          <button
            type="button"
            className="button button-ghost tool-background"
            data-testid="tool-background"
            title="Let the command go on in the background and the agent go on (Ctrl+B moves every running command)"
            onClick={() => shells.toBackground(call.id)}
          >
            Move to background
          </button>
        </div>
      )}
      {isShell ? (
        <ShellOutput text={call.progress} running={state === 'running'} />
      ) : (
        call.progress &&
        !call.result && <div className="tool-progress dim">{lastLine(call.progress)}</div>
      )}
      {call.violations && <SandboxNotice violations={call.violations} />}
      {facts && (
        <div className="tool-facts" data-testid="tool-facts">
          {facts}
        </div>
      )}
      {call.subAgent && <SubAgentTranscript callId={call.id} agentId={call.subAgent.agentId} transcript={call.subAgent.transcript} />}
      {call.inner && <InnerCalls callId={call.id} transcript={call.inner} />}
      {call.otherAgents?.map((other) => (
        <SubAgentTranscript key={other.agentId} callId={call.id} agentId={other.agentId} transcript={other.transcript} />
      ))}
      {changedBy && (
        <div className="tool-changed-by dim" data-testid="tool-changed-by">
          Changed by {originLabel(changedBy)}
        </div>
      )}
      {diagnostics && (
        <pre className="tool-diagnostics" data-testid="tool-diagnostics" role="status">
          {diagnostics}
        </pre>
      )}
      {diff && <ToolDiff callId={call.id} diff={diff} />}
      {screenshot && detail?.type === 'web_browser' && (
        <img className="tool-screenshot" data-testid="tool-screenshot" src={screenshot} alt={`Screenshot of ${detail.url}`} />
      )}
      {failed && !open && firstLine && <div className="tool-error-line">{firstLine}</div>}
      {open && <ToolDetails call={call} />}
    </div>
  );
});

function ToolDetails({ call }: { call: ToolCall }) {
  const content = call.result?.content ?? '';
  const detail = call.result?.detail;
  const mcp = detail?.type === 'mcp' ? detail : null;
  return (
    <div className="tool-details">
      {call.decision && (
        <div className="tool-section-label">
          Permission <span className="dim tool-decision-reason">{call.decision.reason}</span>
        </div>
      )}
      <div className="tool-section-label">Input</div>
      <pre className="tool-input">{prettyJson(call.input)}</pre>
      {call.result && (
        <>
          <div className="tool-section-label">
            Result <span className="dim">({call.result.outcome})</span>
          </div>
          <pre className="tool-result" data-testid="tool-result">
            {content.length > MAX_SHOWN
              ? `${content.slice(0, MAX_SHOWN)}\n… ${content.length - MAX_SHOWN} more characters`
              : content || '(empty)'}
          </pre>
        </>
      )}
      {mcp && mcp.structured_content != null && (
        <>
          <div className="tool-section-label">Structured content</div>
          <pre className="tool-result" data-testid="tool-structured">
            {prettyJson(mcp.structured_content)}
          </pre>
        </>
      )}
      {mcp?.meta != null && (
        <>
          <div className="tool-section-label">
            Metadata <span className="dim">(_meta)</span>
          </div>
          <pre className="tool-result" data-testid="tool-meta">
            {prettyJson(mcp.meta)}
          </pre>
        </>
      )}
    </div>
  );
}

/**
 * The colour of the decision line: an ask the person answered is no longer waiting — it shows as approved when the
 * call went ahead, as denied when it did not.
 */
function decisionTone(call: ToolCall, state: ToolVisualState): 'allow' | 'ask' | 'deny' | 'approved' {
  const decision = call.decision?.decision ?? 'allow';
  if (decision !== 'ask' || state === 'waiting' || state === 'queued') return decision;
  if (state === 'denied') return 'deny';
  return 'approved';
}

/** The decision's line: once the person allowed a call that asked, it says so instead of "needs approval". */
function decisionText(reason: string, tone: ReturnType<typeof decisionTone>): string {
  if (tone !== 'approved') return reason;
  const why = reason.replace(/^needs approval:\s*/i, '');
  return `Allowed by you — it asked because ${why}`;
}

/** A plain allow by mode is noise on every read; anything the user or a rule decided is not. */
function decisionWorthShowing(call: ToolCall): boolean {
  const decision = call.decision;
  return !!decision && (decision.decision !== 'allow' || decision.rule !== null || call.asked);
}

function lastLine(text: string): string {
  const lines = text.trimEnd().split('\n');
  return lines[lines.length - 1] ?? '';
}

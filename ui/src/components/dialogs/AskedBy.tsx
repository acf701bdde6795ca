// The line naming the sub-agent a permission question comes from ("Asked by sub-agent Explore: Find the config"),
// shown in the approval and diff dialogs; nothing for the session's own agent.
import type { ApprovalRequest } from '../../generated/protocol';

/** The person-facing name of the sub-agent that asks, or null when the session's own agent asks. */
function askedByLabel(request: ApprovalRequest): string | null {
  const origin = request.sub_agent;
  if (!origin) return null;
  return `Asked by sub-agent ${origin.agent_type}: ${origin.description}`;
}

export function AskedBy({ request, className }: { request: ApprovalRequest; className?: string }) {
  const label = askedByLabel(request);
  if (!label) return null;
  return (
    <p
      className={className ? `asked-by ${className}` : 'asked-by'}
      data-testid="approval-asked-by"
      data-agent-call={request.sub_agent?.parent_tool_use_id}
    >
      {label}
    </p>
  );
}

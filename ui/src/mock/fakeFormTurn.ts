// The `/elicit` script of the e2e fake backend: an MCP tool call whose server asks the person for
// information with a form (elicitation), as the engine's MCP client does; the call's result says
// what the person answered (sent values, declined or cancelled).
import type { ElicitationAnswer, ElicitationRequest } from '../generated/protocol';
import type { ScriptHost } from './fakeEditTurn';

/** What the `/elicit` script needs of its session beyond the other scripts' host. */
export type FormHost = ScriptHost & {
  requestForm: (request: ElicitationRequest) => Promise<ElicitationAnswer>;
};

/** The form the fake `db` server sends. */
export function databaseForm(sessionId: string, id: string): ElicitationRequest {
  return {
    id,
    session_id: sessionId,
    server: 'db',
    message: 'Which database should I connect to?',
    fields: [
      { name: 'database', title: 'Database', description: 'The name of the database', required: true, kind: { type: 'string', format: null, min_length: 1, max_length: null, default: null } },
      { name: 'readonly', title: 'Read only', description: null, required: false, kind: { type: 'boolean', default: true } },
    ],
  };
}

export async function playFormTurn(host: FormHost): Promise<void> {
  const id = host.toolId('toolu_mcp_connect');
  const name = 'mcp__db__connect';
  host.emit({ type: 'tool_call_started', tool_use_id: id, name });
  host.emit({ type: 'tool_call_input', tool_use_id: id, name, input: {}, hints: { kind: 'other', title: 'db: connect', collapsible: true } });
  host.emit({
    type: 'tool_call_decision',
    tool_use_id: id,
    decision: { decision: 'allow', reason: 'allowed by a rule', rule: 'mcp__db', source: 'localSettings', decided_by: null },
  });
  host.emit({ type: 'tool_call_status_changed', tool_use_id: id, status: 'executing' });
  const answer = await host.requestForm(databaseForm(host.id, `form_${id}`));
  const content =
    answer.action === 'accept'
      ? `Connected to ${String(answer.content?.database)}${answer.content?.readonly === false ? '' : ' (read only)'}.`
      : `The person ${answer.action === 'decline' ? 'declined' : 'cancelled'} the form; not connected.`;
  host.emit({ type: 'tool_call_result', tool_use_id: id, outcome: 'success', content, detail: null });
  await host.stream('text_delta', answer.action === 'accept' ? 'The database is connected.' : 'I did not connect to the database.');
}

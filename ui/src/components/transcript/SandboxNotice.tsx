// The notice rows under a shell call for what the sandbox refused it (a connection, a write), each with a
// one-click way to allow it: the host goes to sandbox.network.allowedDomains, the folder to
// sandbox.filesystem.allowWrite of the project's local settings.
import { useContext, useState } from 'react';
import type { SandboxViolation } from '../../generated/protocol';
import { errorMessage } from '../../ipc';
import { SandboxAllowContext, allowLabel, describeViolation, violationKey } from '../../state/sandbox';

export function SandboxNotice({ violations }: { violations: SandboxViolation[] }) {
  if (violations.length === 0) return null;
  return (
    <div className="sandbox-notices" data-testid="sandbox-notices">
      {violations.map((v) => (
        <SandboxNoticeRow key={violationKey(v)} violation={v} />
      ))}
    </div>
  );
}

type RowState = { kind: 'idle' } | { kind: 'busy' } | { kind: 'done'; added: string } | { kind: 'failed'; message: string };

function SandboxNoticeRow({ violation }: { violation: SandboxViolation }) {
  const allow = useContext(SandboxAllowContext);
  const [state, setState] = useState<RowState>({ kind: 'idle' });
  const onAllow = () => {
    if (!allow) return;
    setState({ kind: 'busy' });
    allow(violation).then(
      (added) => setState({ kind: 'done', added }),
      (error: unknown) => setState({ kind: 'failed', message: errorMessage(error) }),
    );
  };
  return (
    <div className="sandbox-notice" data-testid="sandbox-notice" data-kind={violation.type}>
      <span className="sandbox-notice-text">{describeViolation(violation)}</span>
      {state.kind === 'done' ? (
        <span className="sandbox-notice-done" data-testid="sandbox-allowed">
          Allowed {state.added} (saved to the project's local settings)
        </span>
      ) : (
        allow && (
          <button
            type="button"
            className="button button-small"
            data-testid="sandbox-allow"
            disabled={state.kind === 'busy'}
            onClick={onAllow}
          >
            {allowLabel(violation)}
          </button>
        )
      )}
      {state.kind === 'failed' && <span className="sandbox-notice-error">{state.message}</span>}
    </div>
  );
}

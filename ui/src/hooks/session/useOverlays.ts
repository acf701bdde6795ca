// The session's other dialogs and panels — trust, the bypass confirmation, the changes view, the MCP, rules, hooks and
// plugins panels — each opened on its own, shown one at a time in that order and never over a request waiting on the
// person (the trust dialog not over the rewind dialog either). Bypass mode is confirmed once per session.
import { useCallback, useState } from 'react';
import type { PermissionMode, SessionInfo } from '../../generated/protocol';
import { asksForTrust, postponeTrust } from '../../state/trust';

export type Overlay = 'trust' | 'bypass' | 'changes' | 'mcp' | 'rules' | 'hooks' | 'plugins' | 'usage';

export type Overlays = {
  /** The one on screen, if any. */
  shown: Overlay | null;
  /** Opens one (the bypass confirmation opens through `changeMode`). */
  open: (overlay: Exclude<Overlay, 'bypass'>) => void;
  /** Closes the one on screen; closing the trust dialog of an untrusted folder puts the question off. */
  close: (overlay: Exclude<Overlay, 'bypass'>) => void;
  /** Switches the mode, asking first before bypass mode the first time. */
  changeMode: (mode: PermissionMode) => void;
  confirmBypass: () => void;
  cancelBypass: () => void;
};

export function useOverlays(
  info: Pick<SessionInfo, 'cwd' | 'trust'>,
  /** A request or the rewind dialog is on screen. */
  blocked: { asking: boolean; rewinding: boolean },
  setMode: (mode: PermissionMode) => Promise<void>,
): Overlays {
  // The trust dialog is asked at once for an untrusted folder whose settings grant something (unless put off).
  const [trustOpen, setTrustOpen] = useState(() => asksForTrust(info.cwd, info.trust));
  const [bypassConfirmed, setBypassConfirmed] = useState(false);
  const [confirmingBypass, setConfirmingBypass] = useState(false);
  const [changesOpen, setChangesOpen] = useState(false);
  const [mcpOpen, setMcpOpen] = useState(false);
  const [panel, setPanel] = useState<'rules' | 'hooks' | 'plugins' | 'usage' | null>(null);

  const open = useCallback((overlay: Exclude<Overlay, 'bypass'>) => {
    if (overlay === 'trust') setTrustOpen(true);
    else if (overlay === 'changes') setChangesOpen(true);
    else if (overlay === 'mcp') setMcpOpen(true);
    else setPanel(overlay);
  }, []);
  const close = useCallback(
    (overlay: Exclude<Overlay, 'bypass'>) => {
      if (overlay === 'trust') {
        if (!info.trust.trusted) postponeTrust(info.cwd);
        setTrustOpen(false);
      } else if (overlay === 'changes') setChangesOpen(false);
      else if (overlay === 'mcp') setMcpOpen(false);
      else setPanel(null);
    },
    [info.trust.trusted, info.cwd],
  );
  const changeMode = useCallback(
    (next: PermissionMode) => {
      if (next === 'bypassPermissions' && !bypassConfirmed) setConfirmingBypass(true);
      else void setMode(next);
    },
    [bypassConfirmed, setMode],
  );
  const confirmBypass = useCallback(() => {
    setBypassConfirmed(true);
    setConfirmingBypass(false);
    void setMode('bypassPermissions');
  }, [setMode]);
  const cancelBypass = useCallback(() => setConfirmingBypass(false), []);

  const shown: Overlay | null = blocked.asking
    ? null
    : trustOpen && !blocked.rewinding
      ? 'trust'
      : confirmingBypass
        ? 'bypass'
        : changesOpen
          ? 'changes'
          : mcpOpen
            ? 'mcp'
            : panel;
  return { shown, open, close, changeMode, confirmBypass, cancelBypass };
}

// The trust question of an untrusted folder, trusting and revoking through the status bar badge, and
// the question put off with "Not now".
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { FolderTrust } from '../../generated/protocol';
import { installFakeIpc, sessionInfo } from '../../test/fakeIpc';
import { App } from '../app/App';

const GRANTS: Omit<FolderTrust, 'trusted'> = {
  allow_rules: ['Bash(npm run test:*)'],
  directories: ['/srv/assets'],
  hooks: ['PreToolUse (Bash): ./audit.sh'],
  mcp_servers: ['db: npx db-server'],
};

function untrustedFolder(path: string) {
  let trusted = false;
  return installFakeIpc(
    {
      open_session: (args) =>
        sessionInfo({ cwd: String(args.path), folder_name: 'demo', trust: { trusted, ...GRANTS } }),
      trust_folder: () => {
        trusted = true;
        return { trusted, ...GRANTS };
      },
      revoke_trust: () => {
        trusted = false;
        return { trusted, ...GRANTS };
      },
    },
    { folder: path },
  );
}

describe('TrustDialog', () => {
  it('asks about an untrusted folder, listing what trusting it enables, and trusts it', async () => {
    const ipc = untrustedFolder('/p/trust-me');
    render(<App />);
    const dialog = await screen.findByTestId('trust-dialog');
    expect(dialog).toHaveAttribute('data-trusted', 'false');
    expect(within(dialog).getByTestId('trust-allow')).toHaveTextContent('Bash(npm run test:*)');
    expect(within(dialog).getByTestId('trust-directories')).toHaveTextContent('/srv/assets');
    expect(within(dialog).getByTestId('trust-hooks')).toHaveTextContent('./audit.sh');
    expect(within(dialog).getByTestId('trust-mcp')).toHaveTextContent('db: npx db-server');
    expect(screen.getByTestId('trust-badge')).toHaveTextContent('Untrusted folder');

    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByTestId('trust-dialog')).not.toBeInTheDocument());
    expect(ipc.argsOf('trust_folder')).toEqual([{ sessionId: 'session-1' }]);
    expect(screen.getByTestId('trust-badge')).toHaveTextContent('Trusted folder');
  });

  it('does not ask about a folder whose settings grant nothing', async () => {
    installFakeIpc(
      {
        open_session: () =>
          sessionInfo({ folder_name: 'plain', trust: { trusted: false, allow_rules: [], directories: [], hooks: [], mcp_servers: [] } }),
      },
      { folder: '/p/plain' },
    );
    render(<App />);
    await screen.findByTestId('session');
    expect(screen.queryByTestId('trust-dialog')).not.toBeInTheDocument();
    // The badge still says where the folder stands and opens the question.
    expect(screen.getByTestId('trust-badge')).toHaveTextContent('Untrusted folder');
    await userEvent.click(screen.getByTestId('trust-badge'));
    expect(await screen.findByTestId('trust-nothing')).toBeInTheDocument();
  });

  it('revokes trust from the status bar badge', async () => {
    const ipc = untrustedFolder('/p/revoke-me');
    render(<App />);
    await userEvent.click(await screen.findByTestId('trust-accept'));
    await waitFor(() => expect(screen.getByTestId('trust-badge')).toHaveTextContent('Trusted folder'));

    await userEvent.click(screen.getByTestId('trust-badge'));
    expect(await screen.findByTestId('trust-dialog')).toHaveAttribute('data-trusted', 'true');
    await userEvent.click(screen.getByTestId('trust-revoke'));
    await waitFor(() => expect(screen.queryByTestId('trust-dialog')).not.toBeInTheDocument());
    expect(ipc.argsOf('revoke_trust')).toHaveLength(1);
    expect(screen.getByTestId('trust-badge')).toHaveTextContent('Untrusted folder');
  });

  it('is put off with Not now (or Esc) and not asked again for that folder, but stays reachable', async () => {
    const ipc = untrustedFolder('/p/later');
    render(<App />);
    await screen.findByTestId('trust-dialog');
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('trust-dialog')).not.toBeInTheDocument());
    expect(ipc.argsOf('trust_folder')).toHaveLength(0);

    await userEvent.click(screen.getByTestId('new-session-button'));
    await waitFor(() => expect(ipc.argsOf('open_session')).toHaveLength(2));
    expect(screen.queryByTestId('trust-dialog')).not.toBeInTheDocument();
    await userEvent.click(screen.getByTestId('trust-badge'));
    await userEvent.click(await screen.findByTestId('trust-later'));
    expect(screen.queryByTestId('trust-dialog')).not.toBeInTheDocument();
  });

  it('shows why trust could not be saved and keeps the dialog open', async () => {
    installFakeIpc(
      {
        open_session: () => sessionInfo({ trust: { trusted: false, ...GRANTS } }),
        trust_folder: () => {
          throw { code: 'trust', message: 'trust was not saved: read-only file system' };
        },
      },
      { folder: '/p/readonly' },
    );
    render(<App />);
    await userEvent.click(await screen.findByTestId('trust-accept'));
    expect(await screen.findByTestId('error-banner')).toHaveTextContent('read-only file system');
    expect(screen.getByTestId('trust-dialog')).toBeInTheDocument();
  });
});

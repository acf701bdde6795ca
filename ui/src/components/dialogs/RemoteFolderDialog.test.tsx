// Open Remote Folder…: a URL that cannot be a remote folder is refused before anything starts; a good one opens
// (Enter), a failure shows the message with its install command and leaves the URL to correct; Esc cancels.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { remoteUrlProblem } from '../../state/remoteUrl';
import { RemoteFolderDialog } from './RemoteFolderDialog';

function setup(onOpen: (url: string) => Promise<string | null> = () => Promise.resolve(null)) {
  const open = vi.fn(onOpen);
  const onClose = vi.fn();
  render(<RemoteFolderDialog folder="/home/ana/src/quokka" onOpen={open} onClose={onClose} />);
  return { open, onClose };
}

describe('remoteUrlProblem', () => {
  it.each([
    ['ssh://ann@box/srv/app', null],
    ['  ssh://box:2222/p ', null],
    ['box/srv/app', 'starts with ssh://'],
    ['sftp://box/p', 'starts with ssh://'],
    ['ssh://box', 'absolute path'],
    ['ssh:///p', 'absolute path'],
  ])('%s', (url, problem) => {
    const found = remoteUrlProblem(url);
    if (problem === null) expect(found).toBeNull();
    else expect(found).toContain(problem);
  });
});

describe('RemoteFolderDialog', () => {
  it('opens the URL typed, with Enter', async () => {
    const { open } = setup();
    expect(screen.getByTestId('remote-dialog')).toHaveTextContent('/home/ana/src/quokka');
    await userEvent.type(screen.getByTestId('remote-url'), 'ssh://ann@box/srv/app{Enter}');
    expect(open).toHaveBeenCalledWith('ssh://ann@box/srv/app');
  });

  it('refuses a URL that is not a remote folder without trying it', async () => {
    const { open } = setup();
    await userEvent.type(screen.getByTestId('remote-url'), 'box:/srv/app');
    await userEvent.click(screen.getByTestId('remote-open'));
    expect(await screen.findByTestId('error-banner')).toHaveTextContent('starts with ssh://');
    expect(open).not.toHaveBeenCalled();
  });

  it('shows why the connection failed, with the install command, and keeps the URL', async () => {
    const install = "ssh ann@box 'mkdir -p ~/.local/bin && cat > ~/.local/bin/tandem && chmod +x ~/.local/bin/tandem'";
    setup(() => Promise.resolve(`ann@box has no \`tandem\` on the PATH; install this one there with:\n  ${install}`));
    await userEvent.type(screen.getByTestId('remote-url'), 'ssh://ann@box/srv/app{Enter}');
    expect(await screen.findByTestId('error-banner')).toHaveTextContent(install);
    expect(screen.getByTestId('remote-url')).toHaveValue('ssh://ann@box/srv/app');
    expect(screen.getByTestId('remote-open')).toBeEnabled();
  });

  it('Esc cancels', async () => {
    const { onClose } = setup();
    await userEvent.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalled();
  });
});

// "New Session with…": the configured agents are offered and choosing one opens it (the dialog waits, then closes
// through the parent); an agent that cannot start says why and stays choosable; none configured says where and how
// to configure one; a settings file that cannot be read says so.
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { AgentServers } from '../../generated/app';
import { HostedSessionDialog } from './HostedSessionDialog';

const FILE = '/home/ana/.config/tandem/settings.json';

function setup(servers: AgentServers, onChoose: (name: string) => Promise<string | null> = () => Promise.resolve(null)) {
  const onClose = vi.fn();
  const choose = vi.fn(onChoose);
  render(<HostedSessionDialog folder="/home/ana/src/quokka" load={() => Promise.resolve(servers)} onChoose={choose} onClose={onClose} />);
  return { choose, onClose };
}

describe('HostedSessionDialog', () => {
  it('offers the configured agents and opens the one chosen', async () => {
    const { choose } = setup({ names: ['claude', 'gemini'], problem: null, settings_file: FILE });
    const agents = await screen.findAllByTestId('hosted-agent');
    expect(agents.map((each) => each.textContent)).toEqual(['claude', 'gemini']);
    expect(screen.getByTestId('hosted-dialog')).toHaveTextContent('/home/ana/src/quokka');
    await userEvent.click(agents[1] as HTMLElement);
    expect(choose).toHaveBeenCalledWith('gemini');
  });

  it('says why an agent could not start and lets another be chosen', async () => {
    let finish: (why: string | null) => void = () => undefined;
    const { choose } = setup(
      { names: ['claude'], problem: null, settings_file: FILE },
      () => new Promise((resolve) => (finish = resolve)),
    );
    await userEvent.click(await screen.findByTestId('hosted-agent'));
    expect(screen.getByTestId('hosted-agent')).toHaveTextContent('Starting claude…');
    expect(screen.getByTestId('hosted-agent')).toBeDisabled();
    finish('the agent `claude` (npx) cannot be started: No such file or directory');
    expect(await screen.findByTestId('error-banner')).toHaveTextContent('cannot be started');
    await waitFor(() => expect(screen.getByTestId('hosted-agent')).toBeEnabled());
    expect(choose).toHaveBeenCalledTimes(1);
  });

  it('says how to configure an agent when none is', async () => {
    setup({ names: [], problem: null, settings_file: FILE });
    const none = await screen.findByTestId('hosted-none');
    expect(none).toHaveTextContent('No agents are configured');
    expect(none).toHaveTextContent(FILE);
    expect(none).toHaveTextContent('"agentServers"');
    expect(screen.queryByTestId('hosted-agent')).toBeNull();
  });

  it('shows a settings file that cannot be read, and Esc closes', async () => {
    const { onClose } = setup({ names: [], problem: `${FILE}: agentServers must be an object`, settings_file: FILE });
    expect(await screen.findByTestId('error-banner')).toHaveTextContent('agentServers must be an object');
    await userEvent.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalled();
  });
});

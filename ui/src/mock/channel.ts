// Sends messages to a Tauri `Channel` the way the Rust side does (numbered, through the callback
// registry), for the mocked IPC of tests and the e2e build.
import type { EventBatch } from '../generated/protocol';

type TauriInternals = { runCallback: (id: number, data: unknown) => void };

/** The channel argument as a mocked command receives it (the Channel object itself). */
export type ChannelArg = { id: number };

export function isChannelArg(value: unknown): value is ChannelArg {
  return typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'number';
}

export class ChannelSender<T = EventBatch> {
  private index = 0;
  private readonly channel: ChannelArg;

  constructor(channel: ChannelArg) {
    this.channel = channel;
  }

  send(batch: T): void {
    const internals = (window as unknown as { __TAURI_INTERNALS__: TauriInternals }).__TAURI_INTERNALS__;
    internals.runCallback(this.channel.id, { index: this.index++, message: batch });
  }
}

// The terminal panel of the e2e build's fake backend: a pretend shell that echoes what is typed, runs a line on Enter
// (`echo WORDS` prints the words; anything else prints that it ran) and prompts again (Ctrl+W erases a word), streaming its output base64 on
// the panel's channel as the app does. It remembers the lines run, its size and whether it was closed.
import type { TerminalChunk } from '../generated/protocol';
import { ChannelSender, type ChannelArg } from './channel';

const PROMPT = '\u001b[32mfake\u001b[0m:~$ ';

function base64(text: string): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(text)));
}

export class FakeTerminal {
  readonly ran: string[] = [];
  size = { rows: 0, cols: 0 };
  closed = false;
  private line = '';
  private screen = '';
  private sender: ChannelSender<TerminalChunk> | null = null;

  /** Opens (or attaches again): the screen so far is played first. */
  open(channel: ChannelArg, rows: number, cols: number): { shell: string; started: boolean } {
    const started = this.screen === '';
    if (started) this.screen = PROMPT;
    this.size = { rows, cols };
    this.sender = new ChannelSender<TerminalChunk>(channel);
    this.sender.send({ type: 'output', data: base64(this.screen) });
    return { shell: '/bin/fake-sh', started };
  }

  input(data: string): void {
    for (const key of data) {
      if (key === '\r') {
        const command = this.line.trim();
        this.line = '';
        this.ran.push(command);
        const words = /^echo\s+(.*)$/.exec(command);
        const output = command === '' ? '' : words ? `${words[1]}\r\n` : `fake-sh: ran ${command}\r\n`;
        this.print(`\r\n${output}${PROMPT}`);
      } else if (key === '\u0017') {
        // Ctrl+W erases the word before the cursor.
        const kept = this.line.replace(/\S+\s*$/, '');
        this.print('\b \b'.repeat(this.line.length - kept.length));
        this.line = kept;
      } else if (key === '\u007f') {
        if (this.line) {
          this.line = this.line.slice(0, -1);
          this.print('\b \b');
        }
      } else if (key >= ' ') {
        this.line += key;
        this.print(key);
      }
    }
  }

  private print(text: string): void {
    this.screen += text;
    this.sender?.send({ type: 'output', data: base64(text) });
  }
}

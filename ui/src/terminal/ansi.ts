// Plain text from raw terminal output, for where no terminal emulator runs (tests, copies):
// ANSI escape sequences removed and carriage-return overwrites resolved per line.
// eslint-disable-next-line no-control-regex
const ESCAPES = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)|[@-Z\\-_])/g;

export function plainText(raw: string): string {
  return raw
    .replace(ESCAPES, '')
    .split('\n')
    .map((line) => {
      const parts = line.split('\r');
      // What was last drawn after a carriage return wins (progress bars redraw a line).
      let last = parts.pop() ?? '';
      while (last === '' && parts.length) last = parts.pop() ?? '';
      return last;
    })
    .join('\n');
}

// Live output of a shell tool call. A plain <pre> for now; this is the boundary where an xterm.js
// terminal will plug in, so callers only pass the text and whether it is still running.
export type ShellOutputProps = {
  text: string;
  running: boolean;
};

export function ShellOutput({ text, running }: ShellOutputProps) {
  if (!text) return null;
  return (
    <pre className={`shell-output${running ? ' is-running' : ''}`} data-testid="shell-output">
      {text}
    </pre>
  );
}

// Live output of a shell tool call. A plain <pre> for now; this is the boundary where an xterm.js
// terminal will plug in, so callers only pass the text and whether it is still running.
import { useRef } from 'react';
import { useStickToBottom } from '../hooks/useStickToBottom';

export type ShellOutputProps = {
  text: string;
  running: boolean;
};

export function ShellOutput({ text, running }: ShellOutputProps) {
  const scrollRef = useRef<HTMLPreElement>(null);
  const contentRef = useRef<HTMLElement>(null);
  const { onScroll } = useStickToBottom(scrollRef, contentRef);
  if (!text) return null;
  return (
    <pre
      ref={scrollRef}
      onScroll={onScroll}
      className={`shell-output${running ? ' is-running' : ''}`}
      data-testid="shell-output"
    >
      <code ref={contentRef}>{text}</code>
    </pre>
  );
}

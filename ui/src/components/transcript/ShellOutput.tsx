// Live output of a shell call. In the app it is an xterm.js terminal (TerminalOutput), so colours
// and carriage-return progress show as in a shell; where no terminal can run (jsdom tests) it
// falls back to a <pre> of the plain text that follows the bottom while streaming. xterm.js is a
// third of the bundle, so it is loaded with the first shell output, not with the window; the plain
// text shows until it is there.
import { lazy, Suspense, useRef } from 'react';
import { useStickToBottom } from '../../hooks/useStickToBottom';
import { plainText } from '../../terminal/ansi';

const TerminalOutput = lazy(() => import('./TerminalOutput').then((module) => ({ default: module.TerminalOutput })));

export type ShellOutputProps = {
  text: string;
  running: boolean;
};

/** xterm.js needs real layout and canvas measurement, which jsdom lacks. */
const canRunTerminal = typeof navigator !== 'undefined' && !navigator.userAgent.includes('jsdom');

export function ShellOutput({ text, running }: ShellOutputProps) {
  if (!text) return null;
  return (
    <div className={`shell-output${running ? ' is-running' : ''}`} data-testid="shell-output">
      {canRunTerminal ? (
        <Suspense fallback={<PlainOutput text={text} />}>
          <TerminalOutput text={text} />
        </Suspense>
      ) : (
        <PlainOutput text={text} />
      )}
    </div>
  );
}

function PlainOutput({ text }: { text: string }) {
  const scrollRef = useRef<HTMLPreElement>(null);
  const contentRef = useRef<HTMLElement>(null);
  const { onScroll } = useStickToBottom(scrollRef, contentRef);
  return (
    <pre ref={scrollRef} onScroll={onScroll} className="shell-output-plain">
      <code ref={contentRef}>{plainText(text)}</code>
    </pre>
  );
}

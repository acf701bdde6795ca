// A prompt typed while a turn runs waits in a queue (more prompts join it) and is sent when the turn ends, or taken
// back into the prompt box; if the engine refuses it, its text returns to the box.
import { useCallback, useEffect, useState } from 'react';

export type PromptQueue = {
  queued: string | null;
  enqueue: (prompt: string) => void;
  /** Takes the queued text back into the prompt box. */
  unqueue: () => void;
};

export function usePromptQueue(
  running: boolean,
  sendPrompt: (prompt: string) => Promise<boolean>,
  putBack: (text: string) => void,
): PromptQueue {
  const [queued, setQueued] = useState<string | null>(null);
  // The end of the turn is noticed while rendering; the effect below sends.
  const [wasRunning, setWasRunning] = useState(running);
  const [release, setRelease] = useState<{ text: string } | null>(null);
  if (wasRunning !== running) {
    setWasRunning(running);
    if (!running && queued !== null) {
      setRelease({ text: queued });
      setQueued(null);
    }
  }
  useEffect(() => {
    if (!release) return;
    void sendPrompt(release.text).then((sent) => {
      if (!sent) putBack(release.text);
    });
  }, [release, sendPrompt, putBack]);
  const enqueue = useCallback((prompt: string) => setQueued((previous) => (previous ? `${previous}\n\n${prompt}` : prompt)), []);
  const unqueue = useCallback(() => {
    if (queued === null) return;
    putBack(queued);
    setQueued(null);
  }, [queued, putBack]);
  return { queued, enqueue, unqueue };
}

// A prompt typed while a turn runs waits in a queue (more prompts join it, their images after the first's) and is
// sent when the turn ends, or taken back into the prompt box; if the engine refuses it, its text and images return
// to the box.
import { useCallback, useEffect, useState } from 'react';
import type { PromptImage } from '../../generated/protocol';

export type PromptQueue = {
  queued: string | null;
  /** The images of the queued prompt. */
  queuedImages: readonly PromptImage[];
  enqueue: (prompt: string, images?: readonly PromptImage[]) => void;
  /** Takes the queued text (and images) back into the prompt box. */
  unqueue: () => void;
};

type Queued = { text: string; images: readonly PromptImage[] };

export function usePromptQueue(
  running: boolean,
  sendPrompt: (prompt: string, images?: readonly PromptImage[]) => Promise<boolean>,
  putBack: (text: string, images?: readonly PromptImage[]) => void,
): PromptQueue {
  const [queued, setQueued] = useState<Queued | null>(null);
  // The end of the turn is noticed while rendering; the effect below sends.
  const [wasRunning, setWasRunning] = useState(running);
  const [release, setRelease] = useState<Queued | null>(null);
  if (wasRunning !== running) {
    setWasRunning(running);
    if (!running && queued !== null) {
      setRelease(queued);
      setQueued(null);
    }
  }
  useEffect(() => {
    if (!release) return;
    void sendPrompt(release.text, release.images).then((sent) => {
      if (!sent) putBack(release.text, release.images);
    });
  }, [release, sendPrompt, putBack]);
  const enqueue = useCallback(
    (prompt: string, images: readonly PromptImage[] = []) =>
      setQueued((previous) =>
        previous
          ? { text: previous.text && prompt ? `${previous.text}\n\n${prompt}` : previous.text || prompt, images: [...previous.images, ...images] }
          : { text: prompt, images },
      ),
    [],
  );
  const unqueue = useCallback(() => {
    if (queued === null) return;
    putBack(queued.text, queued.images);
    setQueued(null);
  }, [queued, putBack]);
  return { queued: queued?.text ?? null, queuedImages: queued?.images ?? [], enqueue, unqueue };
}

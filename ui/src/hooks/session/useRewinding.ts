// Rewinding the session: the rewind dialog for a prompt row (or `/rewind` for the latest prompt), the notice saying
// what happened, the rewound prompt's text put back into the prompt box, and retrying a failed turn (its prompt is
// rewound away and sent anew, so the model sees it once).
import { useCallback, useState } from 'react';
import type { PromptImage, RewindOutcome, RewindScope } from '../../generated/protocol';
import { errorMessage } from '../../ipc';
import { describeRewind, promptItems } from '../../state/rewind';
import type { Transcript } from '../../state/transcript';

/** The prompt row being rewound: its place among the prompt rows, its text and id. */
export type Rewinding = { ordinal: number; text: string; images?: readonly PromptImage[]; promptId?: string };

export type RewindFlow = {
  rewinding: Rewinding | null;
  /** Opens the rewind dialog for the prompt row `itemKey`. */
  request: (itemKey: string) => void;
  /** `/rewind`: the dialog for the latest prompt, or a notice saying why not. */
  rewindLast: () => void;
  onRewound: (outcome: RewindOutcome, scope: RewindScope) => void;
  close: () => void;
  notice: string | null;
  dismissNotice: () => void;
  /** The prompt of a turn that failed, which can be tried again. */
  failedPrompt: { text: string; images?: readonly PromptImage[]; promptId?: string } | null;
  retrying: boolean;
  retry: () => Promise<void>;
};

export function useRewinding(
  transcript: Pick<Transcript, 'items' | 'running' | 'lastStopReason'>,
  rewind: (promptId: string, ordinal: number, scope: RewindScope, force: boolean) => Promise<RewindOutcome>,
  sendPrompt: (prompt: string, images?: readonly PromptImage[]) => Promise<boolean>,
  putBack: (text: string, images?: readonly PromptImage[]) => void,
): RewindFlow {
  const { items, running } = transcript;
  const [rewinding, setRewinding] = useState<Rewinding | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const request = useCallback(
    (itemKey: string) => {
      const prompts = promptItems(items);
      const ordinal = prompts.findIndex((item) => item.key === itemKey);
      const item = prompts[ordinal];
      if (item) setRewinding({ ordinal, text: item.text, images: item.images ?? [], promptId: item.promptId });
    },
    [items],
  );
  const rewindLast = useCallback(() => {
    const last = promptItems(items).at(-1);
    if (running) setNotice('Stop the running turn (Esc) before rewinding.');
    else if (last) request(last.key);
    else setNotice('There is no prompt to rewind to yet.');
  }, [items, running, request]);
  const onRewound = useCallback(
    (outcome: RewindOutcome, scope: RewindScope) => {
      setNotice(describeRewind(outcome, scope));
      if (scope !== 'files' && rewinding) putBack(rewinding.text, rewinding.images);
      setRewinding(null);
    },
    [rewinding, putBack],
  );
  const close = useCallback(() => setRewinding(null), []);
  const dismissNotice = useCallback(() => setNotice(null), []);

  const failedPrompt = !running && transcript.lastStopReason === 'error' ? (promptItems(items).at(-1) ?? null) : null;
  const [retrying, setRetrying] = useState(false);
  const retry = useCallback(async () => {
    if (!failedPrompt?.promptId) return;
    setRetrying(true);
    try {
      const ordinal = promptItems(items).length - 1;
      await rewind(failedPrompt.promptId, ordinal, 'conversation', false);
      await sendPrompt(failedPrompt.text, failedPrompt.images);
    } catch (cause) {
      setNotice(`The turn could not be retried: ${errorMessage(cause)}`);
    } finally {
      setRetrying(false);
    }
  }, [failedPrompt, items, rewind, sendPrompt]);

  return { rewinding, request, rewindLast, onRewound, close, notice, dismissNotice, failedPrompt, retrying, retry };
}

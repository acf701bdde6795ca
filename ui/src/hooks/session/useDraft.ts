// Text put back into the prompt box (a rewound prompt, a queued prompt taken back or refused), with the images that
// went with it: each put-back gets a new `nonce`, which remounts the box with them.
import { useCallback, useState } from 'react';
import type { PromptImage } from '../../generated/protocol';

export type Draft = { text: string; images: readonly PromptImage[]; nonce: number };

export function useDraft(): { draft: Draft; putBack: (text: string, images?: readonly PromptImage[]) => void } {
  const [draft, setDraft] = useState<Draft>({ text: '', images: [], nonce: 0 });
  const putBack = useCallback(
    (text: string, images: readonly PromptImage[] = []) =>
      setDraft((previous) => ({ text, images, nonce: previous.nonce + 1 })),
    [],
  );
  return { draft, putBack };
}

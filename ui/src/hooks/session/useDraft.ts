// Text put back into the prompt box (a rewound prompt, a queued prompt taken back or refused): each put-back gets a
// new `nonce`, which remounts the box with the text.
import { useCallback, useState } from 'react';

export type Draft = { text: string; nonce: number };

export function useDraft(): { draft: Draft; putBack: (text: string) => void } {
  const [draft, setDraft] = useState<Draft>({ text: '', nonce: 0 });
  const putBack = useCallback((text: string) => setDraft((previous) => ({ text, nonce: previous.nonce + 1 })), []);
  return { draft, putBack };
}

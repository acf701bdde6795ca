// The prompt box's attached images: files pasted or dropped are checked, read and added as thumbnails; what cannot be
// attached is said in `problem` (until the next attach or a removal), and the rest is still attached. A paste that
// brought no file (WebKitGTK's carries no image data) asks the system clipboard for its image.
import { useCallback, useRef, useState } from 'react';
import type { PromptImage } from '../generated/protocol';
import { clipboardImage, errorMessage } from '../ipc';
import {
  addAttachments,
  fileOfImage,
  MAX_ATTACHMENTS,
  noAttachments,
  readImage,
  refusal,
  removeAttachment,
  type AttachmentList,
} from '../state/attachments';

export type ImageAttachments = {
  list: AttachmentList;
  /** Why some files were not attached; null when all were. */
  problem: string | null;
  attach: (files: readonly File[]) => Promise<void>;
  /** Attaches the system clipboard's image, if it holds one. */
  attachClipboardImage: () => Promise<void>;
  remove: (id: number) => void;
  clear: () => void;
};

export function useImageAttachments(initial: readonly PromptImage[] = []): ImageAttachments {
  const [list, setListState] = useState<AttachmentList>(
    () => addAttachments(noAttachments, initial.map((image, i) => ({ name: `image ${i + 1}`, image }))).list,
  );
  // The list as last set, for attaches that finish reading after another change.
  const current = useRef(list);
  const setList = useCallback((next: AttachmentList) => {
    current.current = next;
    setListState(next);
  }, []);
  const [problem, setProblem] = useState<string | null>(null);
  const attach = useCallback(async (files: readonly File[]) => {
    const problems: string[] = [];
    const read: { name: string; image: PromptImage }[] = [];
    for (const file of files) {
      const why = refusal(file);
      if (why) {
        problems.push(why);
        continue;
      }
      try {
        read.push({ name: file.name || 'pasted image', image: await readImage(file) });
      } catch (cause) {
        problems.push(cause instanceof Error ? cause.message : String(cause));
      }
    }
    const added = addAttachments(current.current, read);
    if (added.dropped > 0) problems.push(`at most ${MAX_ATTACHMENTS} images go with one prompt`);
    setList(added.list);
    setProblem(problems.length > 0 ? problems.join('; ') : null);
  }, [setList]);
  const attachClipboardImage = useCallback(async () => {
    try {
      const image = await clipboardImage();
      if (image) await attach([fileOfImage(image, 'pasted image.png')]);
    } catch (cause) {
      setProblem(errorMessage(cause));
    }
  }, [attach]);
  const remove = useCallback(
    (id: number) => {
      setList(removeAttachment(current.current, id));
      setProblem(null);
    },
    [setList],
  );
  const clear = useCallback(() => {
    setList(noAttachments);
    setProblem(null);
  }, [setList]);
  return { list, problem, attach, attachClipboardImage, remove, clear };
}

// The images a prompt carried, as thumbnails under its text; a click shows one larger, over the window, until Esc,
// a click or the close button. The larger view is rendered into the document's body: transcript rows are
// positioned, which would otherwise hold it inside the row.
import { useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import type { PromptImage } from '../../generated/protocol';
import { dataUrl } from '../../state/attachments';

export function PromptImages({ images }: { images: readonly PromptImage[] }) {
  const [shown, setShown] = useState<number | null>(null);
  const open = shown === null ? undefined : images[shown];
  useEffect(() => {
    if (shown === null) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.stopPropagation();
      setShown(null);
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [shown]);
  return (
    <>
      <div className="prompt-images" data-testid="prompt-images">
        {images.map((image, i) => (
          <button
            // Images of a prompt never change or move: their place names them.
            key={i}
            type="button"
            className="prompt-image"
            data-testid="prompt-image"
            aria-label={`Show image ${i + 1} larger`}
            onClick={() => setShown(i)}
          >
            <img src={dataUrl(image)} alt={`Image ${i + 1} of the prompt`} />
          </button>
        ))}
      </div>
      {open &&
        createPortal(
        <div
          className="image-viewer"
          data-testid="image-viewer"
          role="dialog"
          aria-modal="true"
          aria-label="Image"
          onClick={() => setShown(null)}
        >
          <img src={dataUrl(open)} alt={`Image ${(shown ?? 0) + 1} of the prompt`} />
          <button type="button" className="button image-viewer-close" aria-label="Close" onClick={() => setShown(null)}>
            Close
          </button>
        </div>,
          document.body,
        )}
    </>
  );
}

// The images attached to the prompt box, as thumbnails before sending: each with its name as a tooltip and a
// button that removes it.
import type { Attachment } from '../../state/attachments';
import { dataUrl } from '../../state/attachments';
import { Icon } from '../common/Icon';

export function ImageStrip({ items, onRemove }: { items: readonly Attachment[]; onRemove: (id: number) => void }) {
  if (items.length === 0) return null;
  return (
    <ul className="image-strip" data-testid="attachments" aria-label="Attached images">
      {items.map((item) => (
        <li key={item.id} className="image-thumb" data-testid="attachment" title={item.name}>
          <img src={dataUrl(item.image)} alt={item.name} />
          <button
            type="button"
            className="image-thumb-remove"
            data-testid="attachment-remove"
            aria-label={`Remove ${item.name}`}
            onClick={() => onRemove(item.id)}
          >
            <Icon name="cross" />
          </button>
        </li>
      ))}
    </ul>
  );
}

// Tests of the prompt box's attached images as state: which files are refused and why, the order and the cap of the
// list, removal, and reading a data URL.
import { describe, expect, it } from 'vitest';
import {
  addAttachments,
  dataUrl,
  fromDataUrl,
  imagesOf,
  MAX_ATTACHMENTS,
  MAX_IMAGE_BYTES,
  noAttachments,
  refusal,
  removeAttachment,
} from './attachments';

const png = (data: string) => ({ media_type: 'image/png', data });

describe('attachments', () => {
  it.each([
    [{ name: 'shot.png', type: 'image/png', size: 10 }, null],
    [{ name: 'photo.jpg', type: 'image/jpeg', size: 10 }, null],
    [{ name: 'anim.gif', type: 'image/gif', size: 10 }, null],
    [{ name: 'pic.webp', type: 'image/webp', size: 10 }, null],
    [{ name: 'logo.svg', type: 'image/svg+xml', size: 10 }, 'logo.svg cannot be sent: only PNG, JPEG, GIF and WebP images can'],
    [{ name: 'notes.txt', type: 'text/plain', size: 10 }, 'notes.txt is not an image'],
    [{ name: '', type: 'application/pdf', size: 10 }, 'the pasted file is not an image'],
    [{ name: 'huge.png', type: 'image/png', size: MAX_IMAGE_BYTES + 1 }, 'huge.png is larger than 50 MB'],
  ])('decides whether %o may be attached', (file, why) => {
    expect(refusal(file)).toBe(why);
  });

  it('adds in order with fresh ids, removes one, and sends what is left', () => {
    const first = addAttachments(noAttachments, [
      { name: 'a.png', image: png('AAAA') },
      { name: 'b.png', image: png('BBBB') },
    ]);
    expect(first.dropped).toBe(0);
    expect(first.list.items.map((item) => [item.id, item.name])).toEqual([
      [1, 'a.png'],
      [2, 'b.png'],
    ]);
    const second = addAttachments(first.list, [{ name: 'c.png', image: png('CCCC') }]).list;
    const removed = removeAttachment(second, 2);
    expect(imagesOf(removed)).toEqual([png('AAAA'), png('CCCC')]);
    // An id is never given twice, even after a removal.
    expect(addAttachments(removed, [{ name: 'd.png', image: png('DDDD') }]).list.items.at(-1)?.id).toBe(4);
    expect(removeAttachment(removed, 99)).toBe(removed);
  });

  it('keeps at most MAX_ATTACHMENTS and counts those left out', () => {
    const many = Array.from({ length: MAX_ATTACHMENTS + 3 }, (_, i) => ({ name: `${i}.png`, image: png('AA==') }));
    const added = addAttachments(noAttachments, many);
    expect(added.list.items).toHaveLength(MAX_ATTACHMENTS);
    expect(added.dropped).toBe(3);
    expect(addAttachments(added.list, many.slice(0, 1)).dropped).toBe(1);
  });

  it('reads the data URL FileReader gives, and makes one to show', () => {
    expect(fromDataUrl('data:image/png;base64,iVBORw0KGgo=', 'image/jpeg')).toEqual(png('iVBORw0KGgo='));
    expect(fromDataUrl('data:;base64,AAAA', 'image/webp')).toEqual({ media_type: 'image/webp', data: 'AAAA' });
    expect(fromDataUrl('data:text/plain,hello', 'image/png')).toBeNull();
    expect(dataUrl(png('AAAA'))).toBe('data:image/png;base64,AAAA');
  });
});

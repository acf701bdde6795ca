// The images attached to a prompt before it is sent (pasted or dropped into the prompt box): which files are taken,
// why one is refused, and the list the box shows as thumbnails (added in order, at most MAX_ATTACHMENTS, each
// removable). The engine checks each image again and sizes it down for the model; this only keeps out what could
// never be sent.
import type { PromptImage } from '../generated/protocol';

/** The image types the model takes. */
export const IMAGE_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
/** The most images one prompt carries. */
export const MAX_ATTACHMENTS = 20;
/** The largest image file taken (the engine refuses larger ones too). */
export const MAX_IMAGE_BYTES = 50 * 1024 * 1024;

export type Attachment = {
  /** Unique within the box (thumbnails are keyed by it). */
  id: number;
  /** The file's name, or `pasted image`. */
  name: string;
  image: PromptImage;
};

export type AttachmentList = {
  items: readonly Attachment[];
  /** The id the next attachment gets. */
  nextId: number;
};

export const noAttachments: AttachmentList = { items: [], nextId: 1 };

/** What a file is, as far as attaching goes: null when it may be attached, else why not. */
export function refusal(file: { name: string; type: string; size: number }): string | null {
  const name = file.name || 'the pasted file';
  if (!IMAGE_TYPES.includes(file.type)) {
    return file.type.startsWith('image/')
      ? `${name} cannot be sent: only PNG, JPEG, GIF and WebP images can`
      : `${name} is not an image`;
  }
  if (file.size > MAX_IMAGE_BYTES) return `${name} is larger than 50 MB`;
  return null;
}

/** The image files of a paste or a drop (other items, such as the text of a paste, are not files). */
export function filesOf(data: DataTransfer | null): File[] {
  if (!data) return [];
  const files = Array.from(data.files);
  if (files.length > 0) return files;
  // Some clipboards list the image as an item only.
  return Array.from(data.items)
    .filter((item) => item.kind === 'file')
    .map((item) => item.getAsFile())
    .filter((file): file is File => file !== null);
}

/** The list with `images` added at its end (those beyond MAX_ATTACHMENTS are left out, counted in `dropped`). */
export function addAttachments(
  list: AttachmentList,
  images: readonly { name: string; image: PromptImage }[],
): { list: AttachmentList; dropped: number } {
  const room = Math.max(0, MAX_ATTACHMENTS - list.items.length);
  const taken = images.slice(0, room);
  const items = [...list.items, ...taken.map((each, i) => ({ id: list.nextId + i, name: each.name, image: each.image }))];
  return { list: { items, nextId: list.nextId + taken.length }, dropped: images.length - taken.length };
}

/** The list without attachment `id`. */
export function removeAttachment(list: AttachmentList, id: number): AttachmentList {
  const items = list.items.filter((item) => item.id !== id);
  return items.length === list.items.length ? list : { ...list, items };
}

/** The images to send, in order. */
export function imagesOf(list: AttachmentList): PromptImage[] {
  return list.items.map((item) => item.image);
}

/** A `data:` URL showing `image` (the window's CSP allows them for images). */
export function dataUrl(image: PromptImage): string {
  return `data:${image.media_type};base64,${image.data}`;
}

/** The image of a `data:` URL as FileReader gives it; null when it is not a base64 data URL. */
export function fromDataUrl(url: string, fallbackType: string): PromptImage | null {
  const match = /^data:([^;,]*)(?:;[^,]*)?;base64,(.*)$/s.exec(url);
  if (!match) return null;
  return { media_type: match[1] || fallbackType, data: match[2] ?? '' };
}

/** Reads a file as an image to attach. */
/** An image as a file (a PNG read from the system clipboard), to be attached as a pasted or dropped one is. */
export function fileOfImage(image: PromptImage, name: string): File {
  const binary = atob(image.data);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return new File([bytes], name, { type: image.media_type });
}

export function readImage(file: File): Promise<PromptImage> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const image = typeof reader.result === 'string' ? fromDataUrl(reader.result, file.type) : null;
      if (image) resolve(image);
      else reject(new Error(`${file.name || 'the image'} could not be read`));
    };
    reader.onerror = () => reject(new Error(`${file.name || 'the image'} could not be read`));
    reader.readAsDataURL(file);
  });
}

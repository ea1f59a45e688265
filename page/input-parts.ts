// The images and files of a case's input, under its text: a small image as a thumbnail (its data:
// URL, which the page's CSP allows), a larger one and every file by name, size and sha256 digest.
import { add, el } from './dom';

interface Part {
  type?: unknown;
  name?: unknown;
  mediaType?: unknown;
  bytes?: unknown;
  sha256?: unknown;
  thumbnail?: unknown;
  url?: unknown;
}

// Only an inline image of a type the run accepts is ever put in an <img>: nothing is fetched.
const THUMBNAIL = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+={0,2}$/;

export function inputParts(parent: HTMLElement, parts: unknown): void {
  if (!Array.isArray(parts)) return;
  const media = (parts as Part[]).filter((p) => p && (p.type === 'image' || p.type === 'file'));
  if (!media.length) return;
  const box = add(parent, el('div', 'input-parts'));
  media.forEach((p) => {
    const item = add(box, el('figure', 'input-part'));
    if (typeof p.thumbnail === 'string' && THUMBNAIL.test(p.thumbnail)) {
      const img = add(item, el('img', 'thumbnail'));
      img.alt = String(p.name || 'image');
      img.src = p.thumbnail;
    }
    add(item, el('figcaption', null, caption(p)));
  });
}

function caption(p: Part): string {
  if (typeof p.url === 'string') return 'image at ' + p.url;
  const what = (p.type === 'file' ? 'File ' : 'Image ') + String(p.name || '(inline)');
  return what + ' (' + String(p.mediaType) + ', ' + Number(p.bytes).toLocaleString('en-US') + ' bytes' + ') sha256 ' + String(p.sha256);
}

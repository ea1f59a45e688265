import { createRequire } from 'node:module';

type ImageSizeModule = typeof import('image-size');

/**
 * image-size, required when the first image part is checked: a suite without images (and `list`
 * of one) never loads it. Its CommonJS build, because the check is synchronous.
 */
let loaded: ImageSizeModule['imageSize'] | undefined;
function readSize(): ImageSizeModule['imageSize'] {
  loaded ??= (createRequire(import.meta.url)('image-size') as ImageSizeModule).imageSize;
  return loaded;
}

/** The names image-size gives the types the providers take. */
const TYPE_OF: Readonly<Record<string, string>> = { 'image/png': 'png', 'image/gif': 'gif', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

/**
 * An image's width and height read from its header, for the types the providers take (PNG, GIF,
 * JPEG, WebP); undefined when the header is too short, unknown or of another type than `mediaType`.
 * Enough to refuse an image a provider would reject for its dimensions before any paid call,
 * without decoding it.
 */
export function imageSize(b: Buffer, mediaType: string): { width: number; height: number } | undefined {
  const type = TYPE_OF[mediaType];
  if (type === undefined) return undefined;
  try {
    // A copy with a memory of its own: image-size reads through DataViews that end at their memory's
    // end, not the view's, so a short Buffer (a slice of Node's shared pool) would read its neighbours.
    const size = readSize()(new Uint8Array(b));
    return size.type === type ? { width: size.width, height: size.height } : undefined;
  } catch {
    // A header cut short: the provider is left to judge it.
    return undefined;
  }
}

import { z } from 'zod';
import { dataUrlOf, type InputPart } from './content-parts.js';

/**
 * An image at most this large is kept in the results as a `data:` URL thumbnail (the HTML report
 * shows it; its CSP allows `img-src data:`); a larger one only by name, media type, size and sha256,
 * so results.json never carries big image bytes. 12,000 bytes are 16,000 base64 characters: the
 * data URL stays under the HTML report's field limit (html-cut.ts, 16,384), which would cut it.
 */
export const THUMBNAIL_MAX_BYTES = 12_000;

const digestFields = { name: z.string().optional(), bytes: z.number().int().nonnegative(), sha256: z.string().regex(/^[0-9a-f]{64}$/) };

/** One part of a case's input as the results keep it: text whole, an image or file by digest. */
export const ShownPartSchema = z.union([
  z.object({ type: z.literal('text'), text: z.string() }).strict(),
  z
    .object({
      type: z.literal('image'),
      mediaType: z.string(),
      ...digestFields,
      /** The image itself as a `data:` URL, when it is at most THUMBNAIL_MAX_BYTES. */
      thumbnail: z.string().startsWith('data:image/').optional(),
    })
    .strict(),
  z.object({ type: z.literal('image'), url: z.string() }).strict(),
  z.object({ type: z.literal('file'), mediaType: z.string(), ...digestFields }).strict(),
]);
export type ShownPart = z.infer<typeof ShownPartSchema>;

/** The parts as the results keep them: bytes only for a small image's thumbnail. */
export function shownParts(parts: readonly InputPart[]): ShownPart[] {
  return parts.map((p): ShownPart => {
    if (p.type === 'text') return { type: 'text', text: p.text };
    if ('url' in p) return { type: 'image', url: p.url };
    const digest = { ...(p.name !== undefined ? { name: p.name } : {}), bytes: p.bytes, sha256: p.sha256 };
    if (p.type === 'file') return { type: 'file', mediaType: p.mediaType, ...digest };
    return { type: 'image', mediaType: p.mediaType, ...digest, ...(p.bytes <= THUMBNAIL_MAX_BYTES ? { thumbnail: dataUrlOf(p) } : {}) };
  });
}

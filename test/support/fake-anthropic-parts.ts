/**
 * Messages API `image` and `document` blocks as the real endpoint checks them (version 2026-10-21):
 * a base64 source with a known media type (image/jpeg, image/png, image/gif, image/webp; a document's
 * application/pdf) and well-formed data, or a `url` source; in user turns only. Returns the
 * `invalid_request_error` message, naming the block as the API does (`messages.0.content.1...`).
 */
import { FAKE_IMAGE_TYPES, mediaProblem } from './fake-media.js';

export function refuseMediaBlocks(messages: any[]): string | undefined {
  for (const [i, m] of messages.entries()) {
    if (!Array.isArray(m?.content)) continue;
    for (const [j, b] of m.content.entries()) {
      if (b?.type !== 'image' && b?.type !== 'document') continue;
      const at = `messages.${i}.content.${j}`;
      if (m.role !== 'user') return `${at}: ${b.type} blocks are only allowed in user messages`;
      const src = b.source;
      if (src?.type === 'url') {
        if (typeof src.url !== 'string' || !/^https?:\/\//.test(src.url)) return `${at}.source.url: Input should be a valid URL`;
        continue;
      }
      if (src?.type !== 'base64') return `${at}.source.type: Input tag '${String(src?.type)}' found using 'type' does not match any of the expected tags: 'base64', 'url'`;
      const allowed = b.type === 'image' ? FAKE_IMAGE_TYPES : ['application/pdf'];
      if (!allowed.includes(src.media_type)) return `${at}.source.media_type: Input should be ${allowed.map((t) => `'${t}'`).join(', ')}`;
      const problem = mediaProblem(src.media_type, src.data, allowed);
      if (problem) return `${at}.source.data: ${b.type === 'image' ? 'Image' : 'Document'} does not match the provided media type ${src.media_type} or is not valid base64 (${problem})`;
    }
  }
  return undefined;
}

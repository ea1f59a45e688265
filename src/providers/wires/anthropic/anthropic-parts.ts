import type Anthropic from '@anthropic-ai/sdk';
import type { MediaPart } from '../../../core/content-parts.js';

/**
 * Attachments as Messages API blocks: an image as an `image` block with a base64 source (or a
 * `url` source the API fetches), a PDF as a `document` block with a base64 `application/pdf`
 * source (Anthropic vision and PDF support guides, read 2026-12-02).
 */
export function toAnthropicMediaBlocks(attachments: readonly MediaPart[] | undefined): Array<Anthropic.ImageBlockParam | Anthropic.DocumentBlockParam> {
  return (attachments ?? []).map(toAnthropicBlock);
}

function toAnthropicBlock(a: MediaPart): Anthropic.ImageBlockParam | Anthropic.DocumentBlockParam {
  if (a.type === 'file') return { type: 'document', title: a.name, source: { type: 'base64', media_type: a.mediaType, data: a.data } };
  if ('url' in a) return { type: 'image', source: { type: 'url', url: a.url } };
  return { type: 'image', source: { type: 'base64', media_type: a.mediaType, data: a.data } };
}

import type { Part } from '@google/genai';
import { ProviderConfigError } from '../../../core/errors.js';
import type { MediaPart } from '../../../core/content-parts.js';

/**
 * Attachments as Gemini parts: an image or a PDF as `inlineData` (base64 bytes and their MIME
 * type), which the Gemini API takes for PNG, JPEG, WEBP, GIF and PDF (Gemini API docs: Image
 * understanding, Document understanding, "passing inline data", read 2026-12-04). An http(s) image
 * URL is not fetched by the API on this wire: it is refused before the call, naming the fix.
 */
export function toGeminiMediaParts(attachments: readonly MediaPart[] | undefined): Part[] {
  return (attachments ?? []).map(toGeminiPart);
}

function toGeminiPart(a: MediaPart): Part {
  if ('url' in a) {
    throw new ProviderConfigError(`the Gemini API wire sends images inline only: give the image as a file path or a data: URL, not ${a.url.slice(0, 80)}`);
  }
  return { inlineData: { mimeType: a.mediaType, data: a.data } };
}

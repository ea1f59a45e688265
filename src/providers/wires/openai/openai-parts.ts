import type OpenAI from 'openai';
import { dataUrlOf, type MediaPart } from '../../../core/content-parts.js';

/**
 * A user message's text and attachments as Chat Completions content parts: an image as an
 * `image_url` part (a data URL, or the http(s) URL the API fetches), a PDF as a `file` part with
 * its base64 data URL and file name (OpenAI "Images and vision" and "File inputs" guides, read 2026-12-02).
 */
export function toOpenAIUserContent(text: string, attachments: readonly MediaPart[] | undefined): string | OpenAI.ChatCompletionContentPart[] {
  if (!attachments?.length) return text;
  const parts: OpenAI.ChatCompletionContentPart[] = text !== '' ? [{ type: 'text', text }] : [];
  for (const a of attachments) parts.push(toOpenAIPart(a));
  return parts;
}

function toOpenAIPart(a: MediaPart): OpenAI.ChatCompletionContentPartImage | OpenAI.ChatCompletionContentPart.File {
  if (a.type === 'file') return { type: 'file', file: { filename: a.name, file_data: dataUrlOf(a) } };
  return { type: 'image_url', image_url: { url: 'url' in a ? a.url : dataUrlOf(a) } };
}

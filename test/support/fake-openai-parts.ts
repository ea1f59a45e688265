/**
 * Chat Completions user content parts as the real endpoint checks them: `text`, `image_url` (an
 * http(s) URL or a base64 data URL of PNG, JPEG, GIF or WebP) and `file` (base64 data URL of a PDF
 * with a file name, or a file id); anything else is a 400 naming the part (`param`).
 */
import type { OpenAIRefusal } from './fake-openai-rules.js';
import { FAKE_IMAGE_TYPES, mediaProblem, splitDataUrl } from './fake-media.js';

export function refuseContentParts(messages: any[]): OpenAIRefusal | undefined {
  for (const [i, m] of messages.entries()) {
    if (!Array.isArray(m?.content)) continue;
    for (const [j, part] of m.content.entries()) {
      const at = `messages[${i}].content[${j}]`;
      const refused = refusePart(part, at, m.role);
      if (refused) return refused;
    }
  }
  return undefined;
}

function refusePart(part: any, at: string, role: string): OpenAIRefusal | undefined {
  const invalid = (param: string, message: string): OpenAIRefusal => ({ message: `Invalid '${param}': ${message}`, param, code: 'invalid_value' });
  if (part?.type === 'text') return typeof part.text === 'string' ? undefined : invalid(`${at}.text`, 'expected a string.');
  if (role !== 'user') return invalid(`${at}.type`, `only 'text' parts are allowed in a ${role} message.`);
  if (part?.type === 'image_url') {
    const url = part.image_url?.url;
    if (typeof url === 'string' && /^https?:\/\//.test(url)) return undefined;
    const data = splitDataUrl(url);
    const problem = data ? mediaProblem(data.mediaType, data.data, FAKE_IMAGE_TYPES) : 'expected an image URL or a base64-encoded data URL with an image MIME type';
    if (problem)
      return {
        message: `Invalid '${at}.image_url.url': ${problem}. You uploaded an unsupported image; supported formats are png, jpeg, gif and webp.`,
        param: `${at}.image_url.url`,
        code: 'invalid_image_format',
      };
    if (part.image_url.detail !== undefined && !['auto', 'low', 'high'].includes(part.image_url.detail)) return invalid(`${at}.image_url.detail`, "expected one of 'auto', 'low', 'high'.");
    return undefined;
  }
  if (part?.type === 'file') {
    const file = part.file ?? {};
    if (typeof file.file_id === 'string') return undefined;
    const data = splitDataUrl(file.file_data);
    const problem = data ? mediaProblem(data.mediaType, data.data, ['application/pdf']) : 'expected a base64-encoded data URL';
    if (problem) return invalid(`${at}.file.file_data`, `${problem}.`);
    if (typeof file.filename !== 'string' || file.filename === '') return invalid(`${at}.file.filename`, 'a filename is required with file_data.');
    return undefined;
  }
  return invalid(`${at}.type`, `expected one of 'text', 'image_url', 'input_audio', 'file', but got ${JSON.stringify(part?.type)}.`);
}

/**
 * The Responses API's message content parts: `input_image` (an http(s) URL or a base64 image data
 * URL in `image_url`, or a `file_id`) and `input_file` (a PDF data URL in `file_data` with a
 * `filename`, or a `file_id` / `file_url`). Returns the API's message for a malformed one.
 */
export function refuseResponsesParts(input: any[]): string | undefined {
  for (const [i, item] of input.entries()) {
    if (!Array.isArray(item?.content)) continue;
    for (const [j, part] of item.content.entries()) {
      const at = `input[${i}].content[${j}]`;
      if (part?.type === 'input_image' && typeof part.file_id !== 'string') {
        const url = part.image_url;
        if (typeof url === 'string' && /^https?:\/\//.test(url)) continue;
        const data = splitDataUrl(url);
        const problem = data ? mediaProblem(data.mediaType, data.data, FAKE_IMAGE_TYPES) : 'expected an image URL or a base64-encoded data URL with an image MIME type';
        if (problem) return `Invalid '${at}.image_url': ${problem}.`;
      }
      if (part?.type === 'input_file' && typeof part.file_id !== 'string' && typeof part.file_url !== 'string') {
        const data = splitDataUrl(part.file_data);
        const problem = data ? mediaProblem(data.mediaType, data.data, ['application/pdf']) : 'expected a base64-encoded data URL';
        if (problem) return `Invalid '${at}.file_data': ${problem}.`;
        if (typeof part.filename !== 'string' || part.filename === '') return `Missing required parameter: '${at}.filename'.`;
      }
    }
  }
  return undefined;
}

/**
 * What both fakes check of an inline image or PDF, as the real APIs do (OpenAI "Images and vision"
 * guide; Anthropic vision and PDF support guides; read 2026-12-02): a known media type (PNG, JPEG,
 * GIF, WebP; a PDF for documents), well-formed base64, and bytes that are what the type says.
 */
export const FAKE_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const MAGIC: Record<string, (b: Buffer) => boolean> = {
  'image/png': (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/gif': (b) => b.subarray(0, 4).toString('latin1') === 'GIF8',
  'image/webp': (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  'application/pdf': (b) => b.subarray(0, 5).toString('latin1') === '%PDF-',
};

/** Why base64 `data` of `mediaType` is refused, or undefined when it is a well-formed one. */
export function mediaProblem(mediaType: unknown, data: unknown, allowed: readonly string[]): string | undefined {
  if (typeof mediaType !== 'string' || !allowed.includes(mediaType)) return `media type ${String(mediaType)} is not one of ${allowed.join(', ')}`;
  if (typeof data !== 'string' || data === '' || !BASE64.test(data)) return 'the data is not valid base64';
  if (!MAGIC[mediaType]!(Buffer.from(data, 'base64'))) return `the data is not a valid ${mediaType}`;
  return undefined;
}

/** A `data:<type>;base64,<data>` URL split, or undefined. */
export function splitDataUrl(url: unknown): { mediaType: string; data: string } | undefined {
  const m = typeof url === 'string' ? /^data:([^;,]+);base64,(.*)$/s.exec(url) : null;
  return m ? { mediaType: m[1]!, data: m[2]! } : undefined;
}

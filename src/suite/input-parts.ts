import { createHash } from 'node:crypto';
import { basename, resolve } from 'node:path';
import { FileReadError, UserError } from '../core/errors.js';
import { readRegularFileSync } from '../core/regular-file.js';
import { imageSize } from './image-size.js';
import { pdfPageCount } from './pdf-pages.js';
import {
  BASE64,
  FILE_MAX_BYTES,
  IMAGE_MAX_BYTES,
  IMAGE_MAX_SIDE_PX,
  isFileMediaType,
  isImageMediaType,
  parseDataUrl,
  type InputPart,
  type InputPartSpec,
  type MediaPart,
} from '../core/content-parts.js';

/** Where a case's parts are read from, and where its errors point. */
export interface PartsWhere {
  /** The folder paths are relative to: the eval file's. */
  dir: string;
  file: string;
  line?: number;
  /** The field errors name: `input` (default), `turns.1.input`, `messages.0.content`. */
  field?: string;
}

/**
 * The parts of an input made ready for every target: files read, data URLs decoded, each checked
 * for a media type the providers take (by its bytes, as the providers check them) and its size.
 * Read once when the case is planned, so a missing or wrong file is a user error before any trial.
 */
export function resolveInputParts(specs: readonly InputPartSpec[], where: PartsWhere): InputPart[] {
  return specs.map((spec, i) => (spec.type === 'text' ? spec : resolveMedia(spec, where, `${where.field ?? 'input'}.${i}`)));
}

function resolveMedia(spec: Exclude<InputPartSpec, { type: 'text' }>, where: PartsWhere, field: string): MediaPart {
  const fail = (message: string): never => {
    throw new UserError(message, { file: where.file, ...(where.line ? { line: where.line } : {}), field });
  };
  if (spec.url !== undefined && /^https?:\/\//i.test(spec.url)) {
    if (spec.type === 'file') fail('a file part takes a path or a data: URL (the providers are sent PDFs inline)');
    return { type: 'image', url: spec.url };
  }
  let bytes: Buffer;
  let name: string | undefined;
  let declared: string | undefined;
  if (spec.path !== undefined) {
    name = basename(spec.path);
    // Bounded by the part's own limit before a byte is read: a device or FIFO is refused, never read.
    try {
      bytes = readRegularFileSync(resolve(where.dir, spec.path), spec.type === 'image' ? IMAGE_MAX_BYTES : FILE_MAX_BYTES);
    } catch (err) {
      if (!(err instanceof FileReadError)) throw err;
      if (err.problem === 'not-regular') return fail(`${spec.path} ${err.message}`);
      if (err.problem === 'too-large') return fail(tooLarge(spec.type, name, err.size ?? 0));
      return fail(`cannot read ${spec.path} (${err.code ?? err.message}); paths are relative to the eval file`);
    }
  } else {
    const parsed = parseDataUrl(spec.url!);
    if (!parsed) return fail('a url is a data:<media type>;base64,... URL or an http(s) URL');
    if (!BASE64.test(parsed.data)) return fail('the data URL is not well-formed base64');
    bytes = Buffer.from(parsed.data, 'base64');
    declared = parsed.mediaType;
  }
  const sniffed = sniffMediaType(bytes);
  if (declared !== undefined && sniffed !== undefined && declared !== sniffed) fail(`the data URL says ${declared}, but its bytes are ${sniffed}`);
  const common = { data: bytes.toString('base64'), bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex'), ...(name ? { name } : {}) };
  if (spec.type === 'image') {
    if (!sniffed || !isImageMediaType(sniffed)) return fail(`${name ?? 'the image'} is not a PNG, JPEG, GIF or WebP image${sniffed ? ` (it is ${sniffed})` : ''}`);
    if (bytes.length > IMAGE_MAX_BYTES) fail(tooLarge('image', name, bytes.length));
    const size = imageSize(bytes, sniffed);
    if (size && Math.max(size.width, size.height) > IMAGE_MAX_SIDE_PX)
      fail(`${name ?? 'the image'} is ${size.width}x${size.height} px; Anthropic rejects images larger than ${IMAGE_MAX_SIDE_PX}x${IMAGE_MAX_SIDE_PX} px`);
    return { type: 'image', mediaType: sniffed, ...common };
  }
  if (!sniffed || !isFileMediaType(sniffed)) return fail(`${name ?? 'the file'} is not a PDF (a file part is a PDF)`);
  if (bytes.length > FILE_MAX_BYTES) fail(tooLarge('file', name, bytes.length));
  const pages = pdfPageCount(bytes);
  return { type: 'file', mediaType: sniffed, ...common, name: spec.name ?? name ?? `document-${common.sha256.slice(0, 8)}.pdf`, ...(pages !== undefined ? { pages } : {}) };
}

function tooLarge(type: 'image' | 'file', name: string | undefined, size: number): string {
  return type === 'image'
    ? `${name ?? 'the image'} is ${size} bytes; providers take images up to ${IMAGE_MAX_BYTES} bytes`
    : `${name ?? 'the file'} is ${size} bytes; a file part is at most ${FILE_MAX_BYTES} bytes`;
}

/** The media type the bytes say they are (their magic numbers), for the types the providers take. */
export function sniffMediaType(b: Buffer): string | undefined {
  const starts = (sig: number[], at = 0) => sig.every((v, i) => b[at + i] === v);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts([0x47, 0x49, 0x46, 0x38])) return 'image/gif';
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'image/webp';
  if (starts([0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf';
  return undefined;
}

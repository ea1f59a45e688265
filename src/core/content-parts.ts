import { z } from 'zod';

/**
 * Content parts: a case's `input` given as text, images and files instead of one string.
 *
 * What the providers take:
 * - Anthropic docs: "Vision" guide (build with Claude; read 2026-12-02 in its English, German and
 *   Spanish copies): images as base64, URL or Files API sources; at most 100 images per API request
 *   for models with a 200k-token context window and 600 for all others; at most 8000x8000 px per
 *   image, 2000x2000 px when a request has more than 20 images; a request is at most 32 MB on the
 *   standard endpoints (lower on some partner platforms). Its media types are image/jpeg, image/png,
 *   image/gif and image/webp (the same page's examples and FAQ). The 5 MB per image is NOT on the
 *   parts of that page that could be read on 2026-12-02: it is the API's enforced per-image limit as
 *   Anthropic's own tools and several integrations record it (second-hand), kept as the stricter cap.
 * - Anthropic docs: "PDF support" guide (read 2026-12-02): PDFs as a `document` block (base64
 *   `application/pdf`, URL or file id); standard PDFs only (no password or encryption). How many
 *   bytes and pages a request may carry is per model: the capability table's PDF limits, checked
 *   when the run is planned (providers/pdf-limits.ts).
 * - OpenAI docs: "Images and vision" guide: PNG, JPEG, WEBP and non-animated GIF, given as a fully
 *   qualified URL or a base64 data URL, up to 20 MB per image; PDFs as a `file` part with base64
 *   data. (Read 2026-12-02: the stored copy of that guide shows its overview only, not its limits
 *   section, so the 20 MB is as recorded before; our 5 MB cap is below it either way.)
 * So an image is one of those four media types and a file is a PDF; anything else is a user error.
 */
export const IMAGE_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type ImageMediaType = (typeof IMAGE_MEDIA_TYPES)[number];
export const FILE_MEDIA_TYPES = ['application/pdf'] as const;
export type FileMediaType = (typeof FILE_MEDIA_TYPES)[number];

/** Anthropic's per-image cap (second-hand, see above), below OpenAI's 20 MB: refused at plan time, not after a paid call. */
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/**
 * The most a file part is read: the largest PDF limit of any model the table knows (OpenAI's 128 MB).
 * Each model's own limit (bytes and pages) is checked against it when the run is planned.
 */
export const FILE_MAX_BYTES = 128 * 1024 * 1024;
/** Anthropic docs, "Vision" guide (read 2026-12-02): images larger than this on either side are rejected. */
export const IMAGE_MAX_SIDE_PX = 8000;

/** The `type`s of a content part, in the order errors list them. */
export const INPUT_PART_TYPES = ['text', 'image', 'file'] as const;

/** One part as an eval file gives it: a path relative to the eval file, or a `data:` or http(s) URL. */
export const InputPartSchema = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal(INPUT_PART_TYPES[0]), text: z.string() }).strict(),
    z
      .object({
        type: z.literal(INPUT_PART_TYPES[1]),
        /** A file relative to the eval file. */
        path: z.string().min(1).optional(),
        /** A `data:image/...;base64,` URL, or an http(s) URL passed on to the provider as it is. */
        url: z.string().min(1).optional(),
      })
      .strict(),
    z
      .object({
        type: z.literal(INPUT_PART_TYPES[2]),
        /** A PDF relative to the eval file. */
        path: z.string().min(1).optional(),
        /** A `data:application/pdf;base64,` URL. */
        url: z.string().min(1).optional(),
        /** The name the provider is told (default: the path's file name). */
        name: z.string().min(1).optional(),
      })
      .strict(),
  ])
  .superRefine((p, ctx) => {
    if (p.type === 'text') return;
    if ((p.path === undefined) === (p.url === undefined)) ctx.addIssue({ code: 'custom', message: `an ${p.type} part needs exactly one of "path" or "url"`, path: ['path'] });
  })
  .meta({ id: 'InputPart', description: 'One part of an input: `text`, an `image` (path, data URL or http(s) URL) or a `file` (a PDF: path or data URL).' });
export type InputPartSpec = z.infer<typeof InputPartSchema>;

/** An input: one string, or its parts in order. */
export const CaseInputSchema = z.union([z.string(), z.array(InputPartSchema).min(1)]);

/** Bytes in hand: what every provider can be sent inline. */
export interface InlineMedia {
  /** Base64 of the bytes, no data: prefix. */
  data: string;
  bytes: number;
  sha256: string;
  /** The file name it came from, when it came from a file. */
  name?: string;
}
export type ImagePart = { type: 'image'; mediaType: ImageMediaType } & InlineMedia;
/** An http(s) image the provider fetches itself. */
export interface ImageUrlPart {
  type: 'image';
  url: string;
}
/** `pages`: the PDF's page count where its page tree says it plainly (absent: could not be read). */
export type FilePart = { type: 'file'; mediaType: FileMediaType; name: string; pages?: number } & InlineMedia;
export type MediaPart = ImagePart | ImageUrlPart | FilePart;
/** A part resolved for the run: files read, data URLs decoded and checked. */
export type InputPart = { type: 'text'; text: string } | MediaPart;

/** The text of an input given as parts: what `input` is for assertions, judges and reports. */
export function textOfParts(parts: readonly InputPart[]): string {
  return parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
}

/** The images and files of an input, in order. */
export function mediaOf(parts: readonly InputPart[] | undefined): MediaPart[] {
  return (parts ?? []).filter((p): p is MediaPart => p.type !== 'text');
}

export function isImageMediaType(t: string): t is ImageMediaType {
  return (IMAGE_MEDIA_TYPES as readonly string[]).includes(t);
}

export function isFileMediaType(t: string): t is FileMediaType {
  return (FILE_MEDIA_TYPES as readonly string[]).includes(t);
}

/** `data:<type>;base64,<data>` of an inline part: what OpenAI's image_url and file_data take. */
export function dataUrlOf(p: { mediaType: string; data: string }): string {
  return `data:${p.mediaType};base64,${p.data}`;
}

const DATA_URL = /^data:([a-z]+\/[a-z0-9.+-]+);base64,(.*)$/is;
/** Strict base64 (padding included), as both APIs require. */
export const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A base64 data URL split into its media type and data, or undefined when it is not one. */
export function parseDataUrl(url: string): { mediaType: string; data: string } | undefined {
  const m = DATA_URL.exec(url);
  return m ? { mediaType: m[1]!.toLowerCase(), data: m[2]! } : undefined;
}

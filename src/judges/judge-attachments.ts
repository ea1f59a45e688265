import { mediaOf, type MediaPart } from '../core/content-parts.js';
import type { JudgeSubject } from '../core/judge-subject.js';

/**
 * The images and files a case asked with, in order, for its judge request (none when it asked in
 * text): each turn's, else each history message's (its last user message's are the input's), else
 * the input's; then those its check sent (`sent`).
 */
export function judgeAttachments(c: Pick<JudgeSubject, 'parts' | 'messages' | 'turns'>, sent: readonly MediaPart[] = []): { attachments?: readonly MediaPart[] } {
  const own = c.turns ? c.turns.flatMap((t) => mediaOf(t.parts)) : c.messages.some((m) => m.parts) ? c.messages.flatMap((m) => mediaOf(m.parts)) : mediaOf(c.parts);
  const media = sent.length > 0 ? [...own, ...sent] : own;
  return media.length > 0 ? { attachments: media } : {};
}

/**
 * The lines the judge's `<input>` section ends with, naming each attachment in order, so the judge
 * knows the images and files sent after the prompt are the input's (and which is which).
 */
export function attachmentLines(attachments: readonly MediaPart[] | undefined): string {
  if (!attachments?.length) return '';
  const named = attachments.map((a, i) => `[attachment ${i + 1}: ${attachmentLabel(a)}, sent after this prompt]`);
  return `\n${named.join('\n')}`;
}

/** `image receipt.png (image/png, 1234 bytes, sha256 ab12cd34…)`, or the URL of a fetched image. */
export function attachmentLabel(a: MediaPart): string {
  if ('url' in a) return `image at ${a.url}`;
  return `${a.type} ${a.name ?? 'inline'} (${a.mediaType}, ${a.bytes} bytes, sha256 ${a.sha256.slice(0, 12)})`;
}

import { z } from 'zod';
import type { InputPart } from './content-parts.js';

/** One turn of a conversation: a case's history, what a target receives, what a judge reads. */
export const ChatTurnSchema = z.object({ role: z.enum(['user', 'assistant', 'system']), content: z.string() }).strict();
export type ChatTurn = z.infer<typeof ChatTurnSchema>;

/**
 * A turn of a case's history as planned: a user message given as content parts keeps them
 * (resolved: images and files read and checked) beside its text, which stays `content`.
 */
export interface MessageTurn extends ChatTurn {
  readonly parts?: readonly InputPart[];
}

import { z } from 'zod';
import { CaseInputSchema } from '../core/content-parts.js';
import { once } from '../core/lazy-schema.js';

/**
 * A message of a case's `messages`: like a chat turn, but a user message's content may be content
 * parts (text, images, files) as a case's `input` may. Assistant and system turns stay text: the
 * providers take images and files from the user only.
 */
export const caseMessageSchema = once(() =>
  z
    .object({ role: z.enum(['user', 'assistant', 'system']), content: CaseInputSchema })
    .strict()
    .superRefine((m, ctx) => {
      if (m.role !== 'user' && typeof m.content !== 'string') ctx.addIssue({ code: 'custom', message: `${m.role} messages are text; only user messages may have content parts`, path: ['content'] });
    }),
);
export type CaseMessage = z.infer<ReturnType<typeof caseMessageSchema>>;

import { z } from 'zod';

/** One turn of a conversation: a case's history, what a target receives, what a judge reads. */
export const ChatTurnSchema = z.object({ role: z.enum(['user', 'assistant', 'system']), content: z.string() }).strict();
export type ChatTurn = z.infer<typeof ChatTurnSchema>;

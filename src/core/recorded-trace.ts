import { z } from 'zod';
import { AgentRunSchema } from './agent-run.js';
import { ChatTurnSchema } from './chat-turn.js';
import { lazySchema } from './lazy-schema.js';

/**
 * One recorded agent run read from production traces (an OTLP export, a JSONL line, a results file's
 * trial): what `agent-evals score` grades with no target call. `input` or `messages` is what the agent
 * was asked (the last user message of `messages` is the one it answered); `run` is what it did.
 */
export const RecordedTraceSchema = lazySchema(() =>
  z
    .object({
      /** The trace's own id (an OTLP trace id, a JSONL line's `id`, a results trial's case key and index); stable across reads of the same file. */
      id: z.string().min(1),
      /** When the run started, ISO 8601, when the record says: `--since`/`--until` filter on it. */
      startedAt: z.string().optional(),
      input: z.string().optional(),
      messages: z.array(ChatTurnSchema).min(1).optional(),
      run: AgentRunSchema,
      /** The record's own attributes (agent name, route, user tier…): a scoring file's `where:` matches these. */
      metadata: z.record(z.string(), z.unknown()),
      /** Where it was read: `file:line` for JSONL, `file#traceId` for OTLP, `file#caseKey/trial` for a results file. */
      source: z.string().min(1),
    })
    .strict(),
);
export type RecordedTrace = z.infer<typeof RecordedTraceSchema>;

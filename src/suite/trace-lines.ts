import { z } from 'zod';
import { ToolCallSchema } from '../core/agent-run.js';
import { ChatTurnSchema } from '../core/chat-turn.js';
import { UserError } from '../core/errors.js';
import type { RecordedTrace } from '../core/recorded-trace.js';
import { TokenUsageSchema } from '../core/usage.js';
import { formatPath } from './zod-issues.js';

/** A time `--since`/`--until` can compare: what `Date` reads (ISO 8601 is what exporters write). */
const TimeSchema = z.string().refine((s) => !Number.isNaN(Date.parse(s)), { message: 'not a time (ISO 8601, e.g. 2026-11-30T09:00:00Z)' });

/**
 * One line of a JSONL trace file: what an agent was asked (`input`, or `messages` ending with the user
 * message it answered), its `reply`, and optionally its tool calls, usage, model, time and metadata.
 */
export const TraceLineSchema = z
  .object({
    id: z.string().min(1).optional(),
    /** When the run started (ISO 8601); `time` is read the same. */
    startedAt: TimeSchema.optional(),
    time: TimeSchema.optional(),
    input: z.string().optional(),
    messages: z.array(ChatTurnSchema).min(1).optional(),
    reply: z.string(),
    toolCalls: z.array(ToolCallSchema).optional(),
    usage: TokenUsageSchema.optional(),
    model: z.string().optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
  })
  .strict()
  .refine((l) => (l.input === undefined) !== (l.messages === undefined), { message: 'a trace line has `input` or `messages` (one of them)', path: ['input'] });

/**
 * The traces of a JSONL file's text: one per non-blank line. A line that is not JSON or not a trace is
 * bad input naming the file, the line and the field. A line without an `id` gets `<file>:<line>`.
 */
export function tracesFromLines(text: string, shown: string): RecordedTrace[] {
  const traces: RecordedTrace[] = [];
  const lines = text.split('\n');
  for (const [i, raw] of lines.entries()) {
    if (!raw.trim()) continue;
    const line = i + 1;
    let value: unknown;
    try {
      value = JSON.parse(raw) as unknown;
    } catch {
      throw new UserError('not JSON (a JSONL trace file holds one JSON object per line)', { file: shown, line });
    }
    const parsed = TraceLineSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new UserError(`${issue.message} (a trace line is {input | messages, reply, toolCalls?, usage?, model?, startedAt?, metadata?})`, {
        file: shown,
        line,
        field: formatPath(issue.path) || undefined,
      });
    }
    const l = parsed.data;
    const startedAt = l.startedAt ?? l.time;
    traces.push({
      id: l.id ?? `${shown}:${line}`,
      ...(startedAt !== undefined ? { startedAt } : {}),
      ...(l.input !== undefined ? { input: l.input } : {}),
      ...(l.messages !== undefined ? { messages: l.messages } : {}),
      run: {
        reply: l.reply,
        // `toolCalls: []` records that no tool was called (a trajectory without calls: `onlyTools`
        // passes, `calledTool` says "called 0 times"); a line without the field records no trajectory.
        ...(l.toolCalls !== undefined ? { steps: l.toolCalls.length ? [{ toolCalls: l.toolCalls }] : [] } : {}),
        ...(l.usage ? { usage: l.usage } : {}),
        ...(l.model !== undefined ? { model: l.model } : {}),
      },
      metadata: l.metadata ?? {},
      source: `${shown}:${line}`,
    });
  }
  return traces;
}

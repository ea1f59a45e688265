import { z } from 'zod';
import { AgentRunSchema } from '../../core/agent-run.js';
import { lazySchema } from '../../core/lazy-schema.js';
import { ToolTapeOutcomeSchema } from '../../core/results-schema.js';
import type { TrialInput } from '../../targets/types.js';
import type { TapeState } from '../../targets/tool-tape.js';
import type { InjectionState } from '../../targets/tool-injections.js';
import type { ProxySetting } from '../../providers/proxy.js';

/**
 * The messages between an isolated function target (`isolate: true`) and its worker thread. Every
 * field is structured-clone-safe data: the function itself never crosses, the worker imports the
 * module that defines it and finds it by its place there.
 */

/** Where the worker finds the target: the config file's `targets.<name>`, or the inline `target` of a TS eval file. */
export interface TargetPlace {
  kind: 'config' | 'eval';
  /** Absolute path of the module the worker imports. */
  file: string;
  /** The same file as errors name it. */
  display: string;
  /** The key under the config's `targets` (the target's name, for an eval file's inline one). */
  name: string;
  /** The function's source text as the run was given it: the worker checks it found the same one. */
  source: string;
}

/** What a worker is started with (its `workerData`). */
export interface WorkerInit {
  place: TargetPlace;
  dryRun: boolean;
  /** The config's `proxy` for the target's ctx clients (the worker's environment is the run's). */
  proxy?: ProxySetting | undefined;
  loadTimeoutMs: number;
}

/** A call of the target; `session` keys the ctx.session kept across the turns of one conversation. */
/** `tape` and `injections`: the trial's tools (`--replay-tools`, the case's `toolResults`) as far as it got. */
export type ToWorker = { type: 'call'; id: number; trial: TrialInput; turn: number; session: number; tape?: TapeState; injections?: InjectionState } | { type: 'end-session'; session: number };

/**
 * What a worker posts. The target's own code shares the worker's `parentPort` and can post anything
 * on it, so the host parses every message with this schema before acting on it (isolated-target.ts).
 */
export const FromWorkerSchema = lazySchema(() => {
  const id = z.number().int().positive();
  /** How far the call got on the trial's tool tape (`--replay-tools`), when it was given one. */
  const tape = z.object({ step: z.number().int().nonnegative(), replayed: z.number().int().nonnegative(), diverged: ToolTapeOutcomeSchema.shape.diverged }).strict().optional();
  /** How far the call got on the case's `toolResults`: each tool's calls in the trial, the entries served. */
  const injections = z
    .object({ calls: z.array(z.tuple([z.string(), z.number().int().nonnegative()])), served: z.array(z.number().int().nonnegative()) })
    .strict()
    .optional();
  return z.discriminatedUnion('type', [
    z.object({ type: z.literal('ready') }).strict(),
    z.object({ type: z.literal('load-error'), message: z.string() }).strict(),
    z.object({ type: z.literal('done'), id, run: AgentRunSchema, tape, injections }).strict(),
    /** The call threw: its message and what it had recorded by then. */
    z.object({ type: z.literal('failed'), id, message: z.string(), partial: AgentRunSchema.optional(), tape, injections }).strict(),
    /** What the call has recorded so far (steps, calls in flight), after each step: kept for a timeout. */
    z.object({ type: z.literal('progress'), id, partial: AgentRunSchema }).strict(),
    z.object({ type: z.literal('warn'), kind: z.enum(['counted-once', 'added-both']), message: z.string() }).strict(),
    /** Sent just before the target's own process.exit / process.kill ends the worker. */
    z.object({ type: z.literal('exit-called'), call: z.string() }).strict(),
  ]);
});
export type FromWorker = z.infer<typeof FromWorkerSchema>;

/** Why a message is not one a worker sends, naming the field (never echoing the value: it is the target's data). */
export function refusedMessage(error: z.ZodError): string {
  const issue = error.issues[0]!;
  return `${issue.path.map(String).join('.') || '(the message)'}: ${issue.message}`;
}

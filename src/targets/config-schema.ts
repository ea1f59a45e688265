import { z } from 'zod';
import type { SchemasOf } from '../core/schema-tuple.js';
import { BOUNDS, boundedNumber } from '../core/bounds.js';
import { ModelRefSchema } from '../providers/model-ref.js';
import type { TargetFunction } from './function-target.js';

/** The targets of evals.config.ts, by kind; config/schema.ts puts them in the whole config. */

const fn = <T>(what: string) => z.custom<T>((v) => typeof v === 'function', `expected ${what} (a function)`);

/** One process per trial: the case as JSON on stdin, an AgentRun as JSON on stdout. */
export const CommandTargetSchema = z
  .object({
    command: z.array(z.string().min(1)).min(1),
    cwd: z.string().optional(),
    /** Set on top of the inherited variables. */
    env: z.record(z.string(), z.string()).optional(),
    /** Names copied from the runner's environment; replaces the default list (see command-env.ts). */
    inheritEnv: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name is letters, digits and "_"')).optional(),
    timeoutMs: boundedNumber(BOUNDS.timeoutMs).optional(),
    /** Bound of stdout; more fails the trial. */
    maxOutputBytes: boundedNumber(BOUNDS.count).optional(),
  })
  .strict();

/** A model with instructions and tools, driven in a tool loop by the runner. */
export const ModelTargetSchema = z
  .object({
    model: ModelRefSchema,
    instructions: z.string().optional(),
    instructionsFile: z.string().optional(),
    tools: z.array(z.unknown()).optional(),
    maxSteps: boundedNumber(BOUNDS.count).optional(),
    maxTokens: boundedNumber(BOUNDS.count).optional(),
    temperature: z.number().min(0).max(2).optional(),
    timeoutMs: boundedNumber(BOUNDS.timeoutMs).optional(),
  })
  .strict();

/** An agent running as a service: sessions and turns over HTTP. */
export const HttpTargetSchema = z
  .object({
    url: z.string().url(),
    headers: z.record(z.string(), z.string()).optional(),
    timeoutMs: boundedNumber(BOUNDS.timeoutMs).optional(),
    /** Largest response body accepted (bytes, default 16 MB); a bigger one fails the trial. */
    maxResponseBytes: boundedNumber(BOUNDS.count).optional(),
  })
  .strict();

/**
 * A function target with options: `{ function: agent, otel: true }` builds each run from the agent's
 * OpenTelemetry spans; `{ function: agent, isolate: true }` runs it in a worker thread with a heap cap.
 */
export const FunctionTargetSchema = z
  .object({
    function: fn<TargetFunction>('the target function'),
    otel: z.boolean().optional(),
    /** Run the function in a worker thread: its heap exhaustion, process.exit or crash fails only its trial. */
    isolate: z.boolean().optional(),
    /** The isolated worker's heap cap in MB (default 1024); needs `isolate: true`. */
    maxHeapMb: boundedNumber(BOUNDS.heapMb).optional(),
  })
  .strict();

/** One kind of target: the key that gives it away in the config (none: a bare function), its schema, and how users see it. */
export interface TargetKind<Sc extends z.ZodType = z.ZodType> {
  kind: string;
  key: string | undefined;
  schema: Sc;
  /** Its shape, as the error for a malformed target of this kind shows it. */
  shape: string;
  /** A short name, as messages and the docs say it. */
  label: string;
}

function targetKind<const K extends string, Sc extends z.ZodType>(d: TargetKind<Sc> & { kind: K }): TargetKind<Sc> & { kind: K } {
  return d;
}

/**
 * The target kinds, one descriptor each, in the order of the config schema's union. The union, the
 * malformed-target message (config/target-issues.ts) and the kind names are derived from this list.
 */
export const TARGET_KINDS = [
  targetKind({
    kind: 'function',
    key: undefined,
    schema: fn<(...args: never[]) => unknown>('a target function'),
    shape: 'a function (input, ctx) => reply (a function target)',
    label: 'a function target',
  }),
  targetKind({
    kind: 'command',
    key: 'command',
    schema: CommandTargetSchema,
    shape: '{ command: string[], cwd?: string, env?: { [name]: string }, inheritEnv?: string[], timeoutMs?: number, maxOutputBytes?: number } (a command target)',
    label: 'a command target',
  }),
  targetKind({
    kind: 'model',
    key: 'model',
    schema: ModelTargetSchema,
    shape: '{ model: "provider:model" | { provider, model, ... }, instructions?, instructionsFile?, tools?, maxSteps?, ... } (a model-agent target)',
    label: 'a model-agent target',
  }),
  targetKind({ kind: 'http', key: 'url', schema: HttpTargetSchema, shape: '{ url: string, headers?: { [name]: string }, timeoutMs?: number } (an HTTP target)', label: 'an HTTP target' }),
  targetKind({
    kind: 'functionOptions',
    key: 'function',
    schema: FunctionTargetSchema,
    shape: '{ function: (input, ctx) => reply, otel?: boolean, isolate?: boolean, maxHeapMb?: number } (a function target with options)',
    label: 'a function target',
  }),
] as const;

export const TargetConfigSchema = z.union(TARGET_KINDS.map((k) => k.schema) as SchemasOf<typeof TARGET_KINDS>);

/** The index in TARGET_KINDS of the kind a config value means (a function, else the first key it has), if any. */
export function targetKindIndex(value: unknown): number | undefined {
  if (typeof value === 'function') return 0;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const i = TARGET_KINDS.findIndex((k) => k.key !== undefined && k.key in value);
  return i === -1 ? undefined : i;
}

export type TargetConfig = z.infer<typeof TargetConfigSchema>;

import { z } from 'zod';
import type { SchemasOf } from '../core/schema-tuple.js';
import { CommandTargetSchema, FunctionTargetSchema, functionValue, HttpTargetSchema, McpTargetSchema, ModelTargetSchema } from './target-schemas.js';
import type { TargetFunction } from './function-target.js';
import type { TargetSettings } from './target-settings.js';
import type { Target } from './types.js';

/** The targets of evals.config.ts, by kind; config/schema.ts puts them in the whole config. */

/**
 * One kind of target: the key that gives it away in the config (none: a bare function), its schema,
 * how users see it, and how it is built.
 */
export interface TargetKind<Sc extends z.ZodType = z.ZodType> {
  kind: string;
  key: string | undefined;
  schema: Sc;
  /** Its shape, as the error for a malformed target of this kind shows it. */
  shape: string;
  /** A short name, as messages and the docs say it. */
  label: string;
  /**
   * The target, with every check that can happen before the first trial. Its module is imported
   * here, on first use: the config check reads this list at start-up without any of them.
   */
  build(name: string, spec: z.infer<Sc>, settings: TargetSettings): Promise<Target>;
}

function targetKind<const K extends string, Sc extends z.ZodType>(d: TargetKind<Sc> & { kind: K }): TargetKind<Sc> & { kind: K } {
  return d;
}

/**
 * The target kinds, one descriptor each, in the order of the config schema's union. The union, the
 * malformed-target message (config/target-issues.ts), the kind names and which kind the run builds
 * (create-target.ts) are derived from this list.
 */
export const TARGET_KINDS = [
  targetKind({
    kind: 'function',
    key: undefined,
    schema: functionValue<(...args: never[]) => unknown>('a target function'),
    shape: 'a function (input, ctx) => reply (a function target)',
    label: 'a function target',
    build: async (name, fn, settings) => (await import('./function-builds.js')).buildFunctionTarget(name, fn as TargetFunction, settings),
  }),
  targetKind({
    kind: 'command',
    key: 'command',
    schema: CommandTargetSchema,
    shape: '{ command: string[], cwd?: string, env?: { [name]: string }, inheritEnv?: string[], timeoutMs?: number, maxOutputBytes?: number } (a command target)',
    label: 'a command target',
    build: async (name, spec, settings) => (await import('./command-target.js')).buildCommandTarget(name, spec, settings),
  }),
  targetKind({
    kind: 'model',
    key: 'model',
    schema: ModelTargetSchema,
    shape: '{ model: "provider:model" | { provider, model, ... }, instructions?, instructionsFile?, tools?, maxSteps?, ... } (a model-agent target)',
    label: 'a model-agent target',
    build: async (name, spec, settings) => (await import('./model-target.js')).buildModelTarget(name, spec, settings),
  }),
  targetKind({
    kind: 'http',
    key: 'url',
    schema: HttpTargetSchema,
    shape: '{ url: string, headers?: { [name]: string }, timeoutMs?: number, proxy?: string | false } (an HTTP target)',
    label: 'an HTTP target',
    build: async (name, spec, settings) => (await import('./http-target.js')).buildHttpTarget(name, spec, settings),
  }),
  targetKind({
    kind: 'functionOptions',
    key: 'function',
    schema: FunctionTargetSchema,
    shape: '{ function: (input, ctx) => reply, otel?: boolean, isolate?: boolean, maxHeapMb?: number } (a function target with options)',
    label: 'a function target',
    build: async (name, spec, settings) => (await import('./function-builds.js')).buildFunctionWithOptions(name, spec, settings),
  }),
  targetKind({
    kind: 'mcp',
    key: 'mcp',
    schema: McpTargetSchema,
    shape: '{ mcp: { command, args?, ... } | { url, headers? } | "<name in mcpServers>", timeoutMs?: number } (an MCP server target)',
    label: 'an MCP server target',
    build: async (name, spec, settings) => (await import('./mcp-target.js')).buildMcpTarget(name, spec, settings),
  }),
] as const;

export const TargetConfigSchema = z.union(TARGET_KINDS.map((k) => k.schema) as SchemasOf<typeof TARGET_KINDS>);

/** The index in `kinds` of the kind a config value means (a function: the kind without a key; else the first key it has), if any. */
export function targetKindIndex(value: unknown, kinds: readonly TargetKind[] = TARGET_KINDS): number | undefined {
  const i =
    typeof value === 'function'
      ? kinds.findIndex((k) => k.key === undefined)
      : typeof value === 'object' && value !== null && !Array.isArray(value)
        ? kinds.findIndex((k) => k.key !== undefined && k.key in value)
        : -1;
  return i === -1 ? undefined : i;
}

/** The kind (`command`, `mcp`, …) a config value means, if any. */
export function targetKindOf(value: unknown): (typeof TARGET_KINDS)[number]['kind'] | undefined {
  const i = targetKindIndex(value);
  return i === undefined ? undefined : TARGET_KINDS[i]!.kind;
}

export type TargetConfig = z.infer<typeof TargetConfigSchema>;

import { z } from 'zod';
import { errorMessage } from '../core/errors.js';
import type { TrialInput } from './types.js';
import type { ProviderTool } from '../providers/types.js';

/** What a tool's `execute` is handed besides its arguments. */
export interface ToolContext {
  /** Aborts when the trial times out or the run is interrupted. */
  readonly signal: AbortSignal;
  /** The trial being run (suite, case id, trial index, first input). */
  readonly trial: TrialInput;
  /**
   * A value shared by the tools of this trial (one conversation), created by `init` on first use:
   * e.g. `ctx.state('store', createStore)` gives each trial a fresh store that its tools share.
   * Trials never see each other's state.
   */
  state<T>(key: string, init: () => T): T;
}

/** A tool as the model-agent target uses it; build one with `tool()`. */
export interface Tool<P extends z.ZodType = z.ZodType, R = unknown> {
  readonly name: string;
  readonly description: string | undefined;
  readonly parameters: P;
  /** `parameters` as JSON Schema (what the provider is sent). */
  readonly jsonSchema: Record<string, unknown>;
  /** The JSON Schema of the tool's result, when it declares one (an MCP tool's `outputSchema`). */
  readonly outputSchema?: Record<string, unknown>;
  /** The MCP server the tool comes from (as the target names it); a call records it as its `server`. */
  readonly server?: string;
  execute(args: z.output<P>, ctx: ToolContext): R | Promise<R>;
}

export interface ToolDefinition<P extends z.ZodType, R> {
  /** What the model calls it: letters, digits, `_` and `-`, at most 64 (the providers' rule). */
  name: string;
  description?: string;
  /** A zod object schema; the model's arguments are validated by it before `execute` runs. */
  parameters: P;
  execute(args: z.output<P>, ctx: ToolContext): R | Promise<R>;
}

// A registry-wide symbol, so a tool made by another copy of this package (dist vs src) still counts.
const TOOL = Symbol.for('agent-evals.tool');
const NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Defines a tool for a model-agent target. The model sees `name`, `description` and the JSON
 * Schema of `parameters`; its arguments are checked by `parameters` before `execute` runs, and a
 * validation failure or a throwing `execute` goes back to the model as an error result, so the
 * agent can recover the way it would in production.
 */
export function tool<P extends z.ZodType, R>(def: ToolDefinition<P, R>): Tool<P, R> {
  if (typeof def?.name !== 'string' || !NAME.test(def.name)) {
    throw new TypeError(`tool(): name ${JSON.stringify(def?.name)} must be 1-64 letters, digits, "_" or "-"`);
  }
  // Duck-typed: the user's zod may be another copy than ours.
  if (typeof (def.parameters as { safeParse?: unknown })?.safeParse !== 'function') throw new TypeError(`tool "${def.name}": parameters must be a zod schema`);
  if (typeof def.execute !== 'function') throw new TypeError(`tool "${def.name}": execute must be a function`);
  let jsonSchema: Record<string, unknown>;
  try {
    // `input`: the model writes the arguments, so defaults and optionals are not required of it.
    const { $schema: _drop, ...schema } = z.toJSONSchema(def.parameters, { io: 'input' }) as Record<string, unknown>;
    jsonSchema = schema;
  } catch (err) {
    throw new TypeError(`tool "${def.name}": parameters cannot be expressed as JSON Schema: ${errorMessage(err)}`, { cause: err });
  }
  if (jsonSchema.type !== 'object') throw new TypeError(`tool "${def.name}": parameters must be a zod object schema (z.object({...}))`);
  return Object.freeze({
    [TOOL]: true,
    name: def.name,
    description: def.description,
    parameters: def.parameters,
    jsonSchema,
    execute: def.execute,
  });
}

export function isTool(value: unknown): value is Tool {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[TOOL] === true;
}

export interface ToolOutcome {
  result: unknown;
  isError: boolean;
}

/** Validates the model's arguments and runs the tool; every failure becomes an error result. */
export async function executeTool(t: Tool, args: unknown, ctx: ToolContext): Promise<ToolOutcome> {
  let parsed: z.ZodSafeParseResult<unknown>;
  try {
    // Async so schemas with async refinements work too.
    parsed = await t.parameters.safeParseAsync(args);
  } catch (err) {
    return { result: `invalid arguments for ${t.name}: ${errorMessage(err)}`, isError: true };
  }
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(arguments)'}: ${i.message}`);
    return { result: `invalid arguments for ${t.name}: ${issues.join('; ')}`, isError: true };
  }
  try {
    return { result: await t.execute(parsed.data, ctx), isError: false };
  } catch (err) {
    if (ctx.signal.aborted) throw err; // the trial is over: not something to tell the model
    return { result: errorMessage(err), isError: true };
  }
}

/** A fresh per-trial state store for ToolContext.state. */
export function createToolState(): ToolContext['state'] {
  const values = new Map<string, unknown>();
  return <T>(key: string, init: () => T): T => {
    if (!values.has(key)) values.set(key, init());
    return values.get(key) as T;
  };
}

/** How the model is told about a tool. */
export function providerToolOf(t: Tool): ProviderTool {
  return { name: t.name, ...(t.description !== undefined ? { description: t.description } : {}), parameters: t.jsonSchema };
}

/** A tool result as the text of the tool message sent back to the model. */
export function toolResultText(value: unknown): string {
  if (value === undefined) return '';
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
}

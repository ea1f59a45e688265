import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { z } from 'zod';
import { UserError } from '../core/errors.js';
import type { ModelTargetSchema, TargetConfig } from './config-schema.js';
import type { ProviderLimiters } from '../providers/adaptive-limit.js';
import { createProvider, dryRunProvider } from '../providers/create.js';
import type { ModelSpecInput } from '../providers/model-spec.js';
import { ProviderConfigError } from '../core/errors.js';
import type { SecretRedactor } from '../providers/secret-redactor.js';
import { commandTarget } from './command-target.js';
import { functionTarget, type FunctionTargetOptions, type TargetFunction } from './function-target.js';
import { httpTarget } from './http-target.js';
import { modelAgentTarget } from './model-agent.js';
import { withTargetTimeout } from './target-timeout.js';
import { loadOtelTarget } from './load-otel-target.js';
import { isTool, type Tool } from './tool.js';
import type { Target } from './types.js';

type ModelTargetConfig = z.infer<typeof ModelTargetSchema>;

/** What the run gives every target it builds (from its settings). */
export interface TargetSettings {
  /** The config file's folder: a command's cwd and an instructions file resolve against it. */
  rootDir: string;
  /** The config file, named in errors; null when running on defaults. */
  configFile: string | null;
  /** Where a model target finds its API key and base URL. */
  env: NodeJS.ProcessEnv;
  /** The run's provider limiters. */
  limiters: ProviderLimiters;
  dryRun?: boolean;
  warn?(message: string): void;
  redactor?: SecretRedactor;
}

/**
 * The adapter for a target named in config (or given inline by a TS eval file). Everything that
 * can be checked before a trial runs is checked here (API keys, instruction files, tools), so a
 * misconfigured target stops the run with exit 2 instead of failing every trial.
 */
export async function createTarget(name: string, spec: TargetConfig | TargetFunction, opts: TargetSettings): Promise<Target> {
  const fnOptions: FunctionTargetOptions = { ...(opts.dryRun ? { dryRun: true } : {}), ...(opts.warn ? { warn: opts.warn } : {}), env: opts.env };
  if (typeof spec === 'function') return functionTarget(name, spec as TargetFunction, fnOptions);
  if ('function' in spec) {
    // An isolated target is built by the runner (runner/isolated-target.ts), which can import the config again.
    if (spec.isolate) throw new UserError('isolate: true is not available here (only a run of the CLI or evaluate() with a config file runs targets in workers)', whereIn(opts, name)(''));
    if (spec.maxHeapMb !== undefined) throw new UserError('maxHeapMb caps the heap of an isolated target: it needs isolate: true', whereIn(opts, name)('.maxHeapMb'));
    if (!spec.otel) return functionTarget(name, spec.function, fnOptions);
    // Loaded here only: a run without an otel target never loads OpenTelemetry (an optional peer dependency).
    const { otelTarget } = await loadOtelTarget(whereIn(opts, name)('.otel'));
    return otelTarget(name, spec.function, fnOptions, opts.configFile);
  }
  if ('command' in spec) return withTargetTimeout(commandTarget(name, spec, opts.rootDir, opts.redactor, opts.env), spec.timeoutMs);
  if ('model' in spec) return withTargetTimeout(await modelTarget(name, spec, opts), spec.timeoutMs);
  if ('url' in spec) return withTargetTimeout(httpTarget(name, { ...spec, ...(opts.redactor ? { redactor: opts.redactor } : {}) }), spec.timeoutMs);
  throw new UserError(`target "${name}": this kind of target is not supported yet`, { file: opts.configFile ?? undefined, field: `targets.${name}` });
}

const whereIn = (settings: Pick<TargetSettings, 'configFile'>, name: string) => (field: string) => ({ file: settings.configFile ?? undefined, field: `targets.${name}${field}` });

/**
 * A model target's instructions as the config gives them (inline or from their file): the only ones
 * a judge trusts. Also what a re-judge's replay of the target hands its judges, without building it.
 */
export async function configuredInstructions(name: string, spec: ModelTargetConfig, settings: Pick<TargetSettings, 'configFile' | 'rootDir'>): Promise<string | undefined> {
  const where = whereIn(settings, name);
  if (spec.instructions !== undefined && spec.instructionsFile !== undefined) {
    throw new UserError('give "instructions" or "instructionsFile", not both', where(''));
  }
  if (spec.instructionsFile === undefined) return spec.instructions;
  const file = resolve(settings.rootDir, spec.instructionsFile);
  try {
    return await readFile(file, 'utf8');
  } catch {
    throw new UserError(`cannot read instructions file ${spec.instructionsFile} (resolved to ${file})`, where('.instructionsFile'));
  }
}

async function modelTarget(name: string, spec: ModelTargetConfig, settings: TargetSettings): Promise<Target> {
  const where = whereIn(settings, name);
  const instructions = await configuredInstructions(name, spec, settings);
  const tools = checkTools(spec.tools ?? [], where);
  let provider;
  try {
    // Now, not at the first trial: a missing API key must stop the run before it starts.
    provider = settings.dryRun ? dryRunProvider(spec.model as ModelSpecInput) : createProvider(spec.model as ModelSpecInput, settings.env, { limiters: settings.limiters }); // validated by createProvider
  } catch (err) {
    if (err instanceof ProviderConfigError) throw new ProviderConfigError(`target "${name}": ${err.message}`);
    throw err;
  }
  return modelAgentTarget(name, {
    provider,
    ...(instructions !== undefined ? { instructions } : {}),
    tools,
    ...(spec.maxSteps !== undefined ? { maxSteps: spec.maxSteps } : {}),
    ...(spec.maxTokens !== undefined ? { maxTokens: spec.maxTokens } : {}),
    ...(spec.temperature !== undefined ? { temperature: spec.temperature } : {}),
  });
}

function checkTools(values: unknown[], where: (field: string) => { file: string | undefined; field: string }): Tool[] {
  const seen = new Set<string>();
  return values.map((value, i) => {
    if (!isTool(value)) throw new UserError('expected a tool made with tool() from agent-evals', where(`.tools[${i}]`));
    if (seen.has(value.name)) throw new UserError(`two tools are named "${value.name}"`, where(`.tools[${i}]`));
    seen.add(value.name);
    return value;
  });
}

import { resolve } from 'node:path';
import type { z } from 'zod';
import { FileReadError, ProviderConfigError, UserError } from '../core/errors.js';
import { TEXT_FILE_MAX_BYTES, readRegularFile } from '../core/regular-file.js';
import { createProvider, dryRunProvider } from '../providers/create.js';
import type { ModelTargetSchema } from './target-schemas.js';
import { modelAgentTarget } from './model-agent.js';
import { whereIn, type TargetSettings } from './target-settings.js';
import { withTargetTimeout } from './target-timeout.js';
import { isTool, type Tool } from './tool.js';
import type { Target } from './types.js';
import { refuseUtf16 } from '../core/text-encoding.js';

type ModelTargetConfig = z.infer<typeof ModelTargetSchema>;

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
  let bytes: Buffer;
  try {
    bytes = await readRegularFile(file, TEXT_FILE_MAX_BYTES);
  } catch (err) {
    const why = err instanceof FileReadError && err.problem !== 'missing' ? `: it ${err.message}` : '';
    throw new UserError(`cannot read instructions file ${spec.instructionsFile} (resolved to ${file})${why}`, where('.instructionsFile'));
  }
  refuseUtf16(bytes, spec.instructionsFile);
  return bytes.toString('utf8');
}

/** A model-agent target (`{ model, instructions, tools, ... }`), its provider made now: a missing API key stops the run before it starts. */
export async function buildModelTarget(name: string, spec: ModelTargetConfig, settings: TargetSettings): Promise<Target> {
  const where = whereIn(settings, name);
  const instructions = await configuredInstructions(name, spec, settings);
  const tools = checkTools(spec.tools ?? [], where);
  const moreTools = mcpTools(spec, settings, name, where);
  let provider;
  try {
    // Now, not at the first trial: a missing API key must stop the run before it starts.
    provider = settings.dryRun ? dryRunProvider(spec.model) : createProvider(spec.model, settings.env, { limiters: settings.limiters });
  } catch (err) {
    if (err instanceof ProviderConfigError) throw new ProviderConfigError(`target "${name}": ${err.message}`);
    throw err;
  }
  const target = modelAgentTarget(name, {
    provider,
    ...(instructions !== undefined ? { instructions } : {}),
    tools,
    ...(moreTools ? { moreTools } : {}),
    ...(spec.maxSteps !== undefined ? { maxSteps: spec.maxSteps } : {}),
    ...(spec.maxTokens !== undefined ? { maxTokens: spec.maxTokens } : {}),
    ...(spec.temperature !== undefined ? { temperature: spec.temperature } : {}),
  });
  return withTargetTimeout(target, spec.timeoutMs);
}

/** The tools of the target's MCP servers, asked for at each trial's start (the run lists each server's once). */
function mcpTools(spec: ModelTargetConfig, settings: TargetSettings, name: string, where: Where): ((signal: AbortSignal) => Promise<Tool[]>) | undefined {
  if (!spec.mcpServers || Object.keys(spec.mcpServers).length === 0) return undefined;
  const pool = settings.mcp;
  if (!pool) throw new UserError('MCP servers need a run to start them (agent-evals run or evaluate())', where('.mcpServers'));
  const servers = pool.resolve(name, spec.mcpServers, where);
  return async (signal) => (await Promise.all(servers.map((s) => pool.tools(s, signal)))).flat();
}

type Where = (field: string) => { file: string | undefined; field: string };

function checkTools(values: unknown[], where: Where): Tool[] {
  const seen = new Set<string>();
  return values.map((value, i) => {
    if (!isTool(value)) throw new UserError('expected a tool made with tool() from agent-evals', where(`.tools[${i}]`));
    if (seen.has(value.name)) throw new UserError(`two tools are named "${value.name}"`, where(`.tools[${i}]`));
    seen.add(value.name);
    return value;
  });
}

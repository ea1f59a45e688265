import { UserError } from '../core/errors.js';
import type { ResolvedConfig } from '../config/load-config.js';
import type { RedteamTargetInfo } from '../redteam/index.js';
import { guessDestructiveTools } from '../redteam/destructive-tools.js';
import { targetKindOf } from '../targets/config-schema.js';
import { describeTargets } from './target-descriptions.js';

/** The configured targets `redteam` attacks: those named with `--target`, else every one. An unknown name is bad input. */
export function attackedTargets(config: ResolvedConfig, named: readonly string[] | undefined): string[] {
  const known = Object.keys(config.targets);
  // An `mcp` target is a server without a model: there is no agent to attack.
  const attackable = known.filter((n) => !isMcpTarget(config.targets[n]));
  if (!named?.length) {
    if (!attackable.length)
      throw new UserError(`no target to attack: the config names ${known.length ? 'only mcp targets, which have no model' : 'none'}${config.file ? ` (${config.file})` : ''}`, { field: 'targets' });
    return attackable;
  }
  const unknown = named.filter((n) => !known.includes(n));
  if (unknown.length)
    throw new UserError(`unknown target${unknown.length > 1 ? 's' : ''} ${unknown.map((u) => `"${u}"`).join(', ')} (the config has ${known.map((k) => `"${k}"`).join(', ') || 'none'})`, {
      field: '--target',
    });
  const servers = named.filter((n) => isMcpTarget(config.targets[n]));
  if (servers.length)
    throw new UserError(`target "${servers[0]}" is an mcp target (an MCP server without a model): there is no agent to attack; use agent-evals mcp-check to test the server`, { field: '--target' });
  return [...new Set(named)];
}

const isMcpTarget = (spec: unknown): boolean => targetKindOf(spec) === 'mcp';

/**
 * What the red team reads of each target: its instructions and tools (`describeTargets`), and which
 * tools are destructive (the config's, else guessed from the tools' names and descriptions: `guessed`
 * lists them, for the user to confirm) or allowed.
 */
export async function readTargets(config: ResolvedConfig, names: readonly string[], env: NodeJS.ProcessEnv): Promise<{ targets: RedteamTargetInfo[]; guessed: { target: string; tools: string[] }[] }> {
  const guessed: { target: string; tools: string[] }[] = [];
  const targets = (await describeTargets(config, names, env)).map((described) => {
    const info: RedteamTargetInfo = { ...described, destructiveTools: [] };
    const offered = new Set(info.tools.map((t) => t.name));
    const { destructiveTools, allowedTools } = config.redteam;
    if (destructiveTools) {
      // A target whose tools are unknown (a function, a command) keeps the whole list: a check of a tool it never calls passes.
      info.destructiveTools = info.tools.length ? destructiveTools.filter((t) => offered.has(t)) : [...destructiveTools];
    } else {
      info.destructiveTools = guessDestructiveTools(info.tools);
      if (info.destructiveTools.length) guessed.push({ target: info.name, tools: info.destructiveTools });
    }
    if (allowedTools) info.allowedTools = [...allowedTools];
    if (config.redteam.policy !== undefined) info.policy = config.redteam.policy;
    return info;
  });
  return { targets, guessed };
}

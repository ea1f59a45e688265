import { UserError } from '../core/errors.js';
import { pushAll } from '../core/push-all.js';
import type { ResolvedConfig } from '../config/load-config.js';
import type { RedteamTargetInfo } from '../redteam/index.js';
import { guessDestructiveTools } from '../redteam/destructive-tools.js';
import { configuredInstructions } from '../targets/model-target.js';
import { mcpServerPool } from '../targets/mcp-servers.js';
import { isTool } from '../targets/tool.js';
import { whereIn } from '../targets/target-settings.js';
import { targetKindOf } from '../targets/config-schema.js';

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
 * What the red team reads of each target: a model agent's instructions (inline or from their file) and
 * tools, its MCP servers' tools too (each server started once to list them, then closed); any other
 * kind is a black box (its reply only). Destructive tools are the config's, else guessed from the
 * tools' names and descriptions (`guessed` lists them, for the user to confirm).
 */
export async function readTargets(config: ResolvedConfig, names: readonly string[], env: NodeJS.ProcessEnv): Promise<{ targets: RedteamTargetInfo[]; guessed: { target: string; tools: string[] }[] }> {
  const pool = mcpServerPool({ servers: config.mcpServers, rootDir: config.rootDir, env, proxy: config.proxy });
  const settings = { configFile: config.file, rootDir: config.rootDir };
  const guessed: { target: string; tools: string[] }[] = [];
  try {
    const targets: RedteamTargetInfo[] = [];
    for (const name of names) {
      const spec = config.targets[name]!;
      const info: RedteamTargetInfo = { name, tools: [], destructiveTools: [] };
      // A command target is one process per trial: it holds no conversation.
      if (targetKindOf(spec) === 'command') info.holdsConversation = false;
      if (typeof spec === 'object' && 'model' in spec) {
        const instructions = await configuredInstructions(name, spec, settings);
        if (instructions !== undefined) info.instructions = instructions;
        for (const t of spec.tools ?? []) if (isTool(t)) info.tools.push({ name: t.name, ...(t.description ? { description: t.description } : {}), inputSchema: t.jsonSchema });
        if (spec.mcpServers) {
          const servers = pool.resolve(name, spec.mcpServers, whereIn(settings, name));
          for (const server of servers) {
            const tools = await pool.tools(server).catch((err: unknown) => {
              throw new UserError(
                `target "${name}": cannot list the tools of MCP server "${server.name}": ${err instanceof Error ? err.message : String(err)}`,
                whereIn(settings, name)('.mcpServers'),
              );
            });
            pushAll(
              info.tools,
              tools.map((t) => ({ name: t.name, ...(t.description ? { description: t.description } : {}), inputSchema: t.jsonSchema })),
            );
          }
        }
      }
      const offered = new Set(info.tools.map((t) => t.name));
      const { destructiveTools, allowedTools } = config.redteam;
      if (destructiveTools) {
        // A target whose tools are unknown (a function, a command) keeps the whole list: a check of a tool it never calls passes.
        info.destructiveTools = info.tools.length ? destructiveTools.filter((t) => offered.has(t)) : [...destructiveTools];
      } else {
        info.destructiveTools = guessDestructiveTools(info.tools);
        if (info.destructiveTools.length) guessed.push({ target: name, tools: info.destructiveTools });
      }
      if (allowedTools) info.allowedTools = [...allowedTools];
      if (config.redteam.policy !== undefined) info.policy = config.redteam.policy;
      targets.push(info);
    }
    return { targets, guessed };
  } finally {
    await pool.close();
  }
}

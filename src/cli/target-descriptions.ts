import { UserError } from '../core/errors.js';
import { pushAll } from '../core/push-all.js';
import type { ResolvedConfig } from '../config/load-config.js';
import { runRedactor } from '../providers/run-redactor.js';
import type { SecretRedactor } from '../providers/secret-redactor.js';
import { configuredInstructions } from '../targets/model-target.js';
import { mcpServerPool } from '../targets/mcp-servers.js';
import { isTool } from '../targets/tool.js';
import { whereIn } from '../targets/target-settings.js';
import { targetKindOf } from '../targets/config-schema.js';
import type { TargetDescription } from '../targets/target-description.js';

/**
 * What can be read of each named target without running it (`redteam` and `generate` read it): a
 * model agent's instructions (inline or from their file) and tools, its MCP servers' tools too (each
 * server started once to list them, then closed); any other kind is a black box (its reply only).
 * A server whose tools cannot be listed is bad input naming the target and the server. `redactor`: the
 * caller's, when it redacts more with the same one (else the config's, made here).
 */
export async function describeTargets(config: ResolvedConfig, names: readonly string[], env: NodeJS.ProcessEnv, redactor = configRedactor(config, env)): Promise<TargetDescription[]> {
  const pool = mcpServerPool({ servers: config.mcpServers, rootDir: config.rootDir, env, proxy: config.proxy });
  const settings = { configFile: config.file, rootDir: config.rootDir };
  try {
    const described: TargetDescription[] = [];
    for (const name of names) {
      const spec = config.targets[name]!;
      const info: TargetDescription = { name, tools: [] };
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
      described.push(info);
    }
    // What is read here is sent to a model (the attacker, the generator) and may be written to a file:
    // a secret of the environment or the config in instructions or a tool's text never goes on.
    return described.map((d) => redactedDescription(d, redactor));
  } finally {
    await pool.close();
  }
}

/** The run's secret redactor for this config and environment (as `run` makes it at its front door). */
export function configRedactor(config: ResolvedConfig, env: NodeJS.ProcessEnv): SecretRedactor {
  return runRedactor({ targets: config.targets, env, judging: { judge: config.judge, judges: config.judges }, proxy: config.proxy, mcpServers: config.mcpServers });
}

function redactedDescription(d: TargetDescription, redactor: SecretRedactor): TargetDescription {
  return {
    ...d,
    ...(d.instructions !== undefined ? { instructions: redactor.redact(d.instructions) } : {}),
    tools: d.tools.map((t) => ({
      name: t.name,
      ...(t.description !== undefined ? { description: redactor.redact(t.description) } : {}),
      inputSchema: JSON.parse(redactor.redact(JSON.stringify(t.inputSchema))) as Record<string, unknown>,
    })),
  };
}

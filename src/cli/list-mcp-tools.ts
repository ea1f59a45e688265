import { errorMessage } from '../core/errors.js';
import type { ResolvedConfig } from '../config/load-config.js';
import type { PlannedCase } from '../suite/plan.js';
import { terminalSafe } from '../report/sanitize.js';
import { redactEnv } from './env-redact.js';
import { resolveMcpServer } from '../targets/mcp-target-server.js';

/**
 * `list` of a suite with `mcp` targets: each such target's server is connected once and its tools
 * listed under the cases (name and the first line of the description). A server that cannot be
 * reached is named on stderr; the cases are listed all the same.
 */
export async function mcpToolsText(config: ResolvedConfig, cases: readonly PlannedCase[]): Promise<string> {
  const names = [...new Set(cases.flatMap((c) => (typeof c.target === 'string' ? [c.target] : [])))];
  let text = '';
  for (const target of names) {
    const spec = config.targets[target];
    if (typeof spec !== 'object' || spec === null || !('mcp' in spec)) continue;
    const { name, server } = resolveMcpServer(spec.mcp, target, config.mcpServers, { ...(config.file ? { file: config.file } : {}), field: `targets.${target}.mcp` });
    const { connectMcpServer } = await import('../targets/mcp-client.js');
    try {
      const connection = await connectMcpServer({ name, server: spec.timeoutMs !== undefined ? { ...server, timeoutMs: spec.timeoutMs } : server, rootDir: config.rootDir, env: process.env });
      try {
        const tools = await connection.listTools();
        text += `target ${target}: MCP server "${name}", ${tools.length} tool${tools.length === 1 ? '' : 's'}\n`;
        for (const t of tools) text += terminalSafe(`  ${t.name}${t.description ? `  ${t.description.split('\n')[0]!.slice(0, 100)}` : ''}`) + '\n';
      } finally {
        await connection.close();
      }
    } catch (err) {
      process.stderr.write(`agent-evals: target ${target}: ${terminalSafe(redactEnv(errorMessage(err)))}\n`);
    }
  }
  return text;
}

import type { Command } from 'commander';
import { UserError, errorMessage } from '../core/errors.js';
import { CONFIG_FILES_HELP } from '../config/defaults.js';
import { SecretRedactor, envSecretValues } from '../providers/secret-redactor.js';
import { terminalSafe } from '../report/sanitize.js';
import { DEFAULT_MCP_TIMEOUT_MS } from '../targets/mcp-client.js';
import type { McpServerConfig } from '../targets/mcp-server-schema.js';
import { resolveMcpServer } from '../targets/mcp-target-server.js';
import { loadConfigFromFlags } from './prepare.js';
import { timeoutMs } from './parse-number.js';
import { mcpCheckText } from './mcp-check-text.js';

interface McpCheckFlags {
  config?: string;
  timeout?: number;
  json?: boolean;
}

export function registerMcpCheck(program: Command): void {
  program
    .command('mcp-check')
    .description("check an MCP server's tools without a model: names, descriptions and input schemas, and that arguments a schema refuses get a tool error in time (exit 1 when a check fails)")
    .argument('[server...]', "a server named in the config's mcpServers, a URL (streamable HTTP), or -- followed by the command that starts a stdio server")
    .option('-c, --config <path>', `config file, for a server given by name (default: ${CONFIG_FILES_HELP})`)
    .option('--timeout <ms>', `the bound of each call, in ms (default: the server's timeoutMs, else ${DEFAULT_MCP_TIMEOUT_MS})`, timeoutMs)
    .option('--json', 'print the report as JSON')
    .action(async (operands: string[], flags: McpCheckFlags, command: Command) => {
      const { name, server, rootDir } = await serverOf(operands, hasDashDash(command), flags);
      const bound = flags.timeout ?? server.timeoutMs ?? DEFAULT_MCP_TIMEOUT_MS;
      const [{ connectMcpServer }, { checkMcpServer }] = await Promise.all([import('../targets/mcp-client.js'), import('../targets/mcp-check.js')]);
      const redactor = new SecretRedactor([
        ...envSecretValues(process.env),
        ...Object.values('env' in server ? (server.env ?? {}) : {}),
        ...Object.values('headers' in server ? (server.headers ?? {}) : {}),
      ]);
      const out = (text: string) => process.stdout.write(redactor.redact(text));
      let connection;
      try {
        connection = await connectMcpServer({ name, server: { ...server, timeoutMs: bound }, rootDir, env: process.env });
      } catch (err) {
        // A server that cannot be started or reached fails the check; it is not bad input.
        process.stderr.write(`agent-evals: ${terminalSafe(redactor.redact(errorMessage(err)))}\n`);
        process.exitCode = 1;
        return;
      }
      try {
        const report = await checkMcpServer(connection, name, bound);
        out(flags.json ? JSON.stringify(report, null, 2) + '\n' : mcpCheckText(report));
        process.exitCode = report.failed > 0 ? 1 : 0;
      } catch (err) {
        process.stderr.write(`agent-evals: ${terminalSafe(redactor.redact(errorMessage(err)))}\n`);
        process.exitCode = 1;
      } finally {
        await connection.close();
      }
    });
}

/** Whether the operands came after `--`: then they are a command, never a name. */
function hasDashDash(command: Command): boolean {
  const raw = (c: Command | null | undefined) => (c as unknown as { rawArgs?: string[] } | undefined)?.rawArgs ?? [];
  return raw(command.parent).includes('--') || raw(command).includes('--');
}

async function serverOf(operands: string[], isCommand: boolean, flags: McpCheckFlags): Promise<{ name: string; server: McpServerConfig; rootDir: string }> {
  const usage = "give a server: a name in the config's mcpServers, a URL, or -- <command> [args...]";
  if (operands.length === 0) throw new UserError(`mcp-check: ${usage}`);
  if (isCommand) return { name: 'server', server: { command: operands[0]!, args: operands.slice(1) }, rootDir: process.cwd() };
  if (operands.length > 1) throw new UserError(`mcp-check: one server at a time (${usage}; a command goes after --)`);
  const given = operands[0]!;
  if (/^https?:\/\//i.test(given)) {
    try {
      return { name: new URL(given).hostname, server: { url: new URL(given).toString() }, rootDir: process.cwd() };
    } catch {
      throw new UserError(`mcp-check: ${JSON.stringify(given)} is not a URL`);
    }
  }
  const config = await loadConfigFromFlags(flags, process.cwd());
  // A stdio server's cwd resolves against the config's folder, as in a run.
  return { ...resolveMcpServer(given, given, config.mcpServers, { ...(config.file ? { file: config.file } : {}), field: 'mcpServers' }), rootDir: config.rootDir };
}

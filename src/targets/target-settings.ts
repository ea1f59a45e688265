import type { ProviderLimiters } from '../providers/adaptive-limit.js';
import type { SecretRedactor } from '../providers/secret-redactor.js';
import type { McpServerConfig } from './mcp-server-schema.js';
import type { McpServerPool } from './mcp-servers.js';

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
  /** The config's `mcpServers`, which a target names a server from. */
  mcpServers?: Readonly<Record<string, McpServerConfig>>;
  /** The run's MCP servers (model-agent targets' `mcpServers`); without it a target that names servers is refused. */
  mcp?: McpServerPool;
}

/** Where an error about target `name` points: the config file and `targets.<name><field>`. */
export const whereIn = (settings: Pick<TargetSettings, 'configFile'>, name: string) => (field: string) => ({
  file: settings.configFile ?? undefined,
  field: `targets.${name}${field}`,
});

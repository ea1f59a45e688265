import type { UserConfig } from './schema.js';

/** Typed identity for evals.config.ts: the editor checks keys, the loader validates. */
export function defineConfig(config: UserConfig): UserConfig {
  return config;
}

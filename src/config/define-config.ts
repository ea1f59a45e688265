import type { TargetFunction } from '../targets/function-target.js';
import type { ConfigInput } from './schema.js';

type TargetEntry = NonNullable<ConfigInput['targets']>[string];

/**
 * evals.config.ts as written. The schema can only say "a function" for a function target, which
 * leaves an inline target's `input` and `ctx` typed `never`; here it is a TargetFunction.
 */
export type UserConfig = Omit<ConfigInput, 'targets'> & {
  targets?: Record<string, TargetFunction | Exclude<TargetEntry, (...args: never[]) => unknown>>;
};

/** Typed identity for evals.config.ts: the editor checks keys, the loader validates. */
export function defineConfig(config: UserConfig): UserConfig {
  return config;
}

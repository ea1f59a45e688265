import { UserError } from '../errors.js';
import type { ResolvedConfig } from '../config/load-config.js';
import type { TargetConfig } from '../config/schema.js';
import { commandTarget } from './command-target.js';
import { functionTarget, type TargetFunction } from './function-target.js';
import type { Target } from './types.js';

/** The adapter for a target named in config (or given inline by a TS eval file). */
export async function createTarget(name: string, spec: TargetConfig | TargetFunction, config: ResolvedConfig): Promise<Target> {
  if (typeof spec === 'function') return functionTarget(name, spec as TargetFunction);
  if ('command' in spec) return commandTarget(name, spec, config.rootDir);
  throw new UserError(`target "${name}": this kind of target is not supported yet`, { file: config.file ?? undefined, field: `targets.${name}` });
}

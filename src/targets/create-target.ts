import { UserError } from '../core/errors.js';
import { TARGET_KINDS, targetKindIndex, type TargetConfig, type TargetKind } from './config-schema.js';
import type { TargetFunction } from './function-target.js';
import { whereIn, type TargetSettings } from './target-settings.js';
import type { Target } from './types.js';

/**
 * The adapter for a target named in config (or given inline by a TS eval file), built by the
 * descriptor of its kind (config-schema.ts). Everything that can be checked before a trial runs is
 * checked there (API keys, instruction files, tools), so a misconfigured target stops the run with
 * exit 2 instead of failing every trial.
 */
export async function createTarget(name: string, spec: TargetConfig | TargetFunction, opts: TargetSettings, kinds: readonly TargetKind[] = TARGET_KINDS): Promise<Target> {
  const kind = kinds[targetKindIndex(spec, kinds) ?? -1];
  if (!kind) throw new UserError(`target "${name}": this kind of target is not supported yet`, whereIn(opts, name)(''));
  return kind.build(name, spec, opts);
}

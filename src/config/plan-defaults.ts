import type { PlanDefaults } from '../suite/plan.js';
import { TargetVariants } from '../suite/target-variants.js';
import type { ResolvedConfig } from './load-config.js';
import { targetKindOf } from '../targets/config-schema.js';

/** What a resolved config gives every planned case that sets none of its own: one place for the CLI and `evaluate()`. */
export function planDefaults(config: ResolvedConfig): PlanDefaults {
  return {
    repeat: config.repeat,
    passRate: config.passRate,
    reducers: config.reducers,
    timeoutMs: config.timeoutMs,
    loadTimeoutMs: config.loadTimeoutMs,
    targets: Object.keys(config.targets),
    configFile: config.file,
    variants: new TargetVariants(config.targets, config.rootDir),
    judgeDefaults: { severity: config.judgeSeverity, threshold: config.judgeThreshold },
    userAssertions: config.userAssertions,
    commandTargets: Object.entries(config.targets)
      .filter(([, t]) => targetKindOf(t) === 'command')
      .map(([name]) => name),
    mcpTargets: Object.entries(config.targets)
      .filter(([, t]) => targetKindOf(t) === 'mcp')
      .map(([name]) => name),
  };
}

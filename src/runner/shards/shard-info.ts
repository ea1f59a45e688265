import { functionsBySource, stableHash } from '../../core/stable-hash.js';
import type { ShardInfo } from '../../core/results-schema.js';
import type { RunSettings } from '../loop/index.js';

/**
 * A hash of what decides a run's verdicts: targets, judging, gates, budget, early stop. Left out is
 * what differs between machines of one run and changes no verdict: folders, the environment,
 * concurrency, the interrupt grace. Functions count by their source text.
 */
export function settingsFingerprint(settings: RunSettings): string {
  const { rootDir: _r, env: _e, concurrency: _c, interruptGraceMs: _g, judging, ...rest } = settings;
  const { rootDir: _jr, outputDir: _jo, ...judge } = judging;
  return stableHash({ ...rest, judging: judge }, 16, functionsBySource);
}

/** The `run.shard` record of a sharded run. */
export function shardInfo(settings: RunSettings, shard: Pick<ShardInfo, 'index' | 'total' | 'plan' | 'positions'>): ShardInfo {
  return {
    index: shard.index,
    total: shard.total,
    config: settingsFingerprint(settings),
    plan: shard.plan,
    positions: shard.positions,
    exit: {
      strict: settings.strict,
      failOnFlaky: settings.failOnFlaky,
      ...(settings.minScore !== undefined ? { minScore: settings.minScore } : {}),
      ...(settings.minPassRate !== undefined ? { minPassRate: settings.minPassRate } : {}),
    },
  };
}

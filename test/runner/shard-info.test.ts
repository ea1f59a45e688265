/**
 * The settings fingerprint shards of one run must share: what changes no verdict (folders, environment,
 * concurrency) leaves it alone, what does (strictness, targets, gates) changes it.
 */
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/load-config.js';
import type { UserConfig } from '../../src/config/define-config.js';
import { resolveRunSettings, type RunFlags } from '../../src/config/run-settings.js';
import { settingsFingerprint } from '../../src/runner/shards/shard-info.js';

const base: UserConfig = { evals: ['**/*.eval.yaml'], targets: { echo: (input: string) => input } };
const fp = (user: UserConfig, flags: RunFlags = {}, rootDir = '/ci/a', env: NodeJS.ProcessEnv = {}) =>
  settingsFingerprint(resolveRunSettings(resolveConfig(user, rootDir, 'evals.config.ts', env), flags, env));

describe('settingsFingerprint', () => {
  it('is the same on machines that differ only in folder, environment and concurrency', () => {
    expect(fp(base, { concurrency: 2 }, '/ci/b', { HOME: '/home/x' })).toBe(fp(base, { concurrency: 8 }));
  });

  it('differs when a setting that decides verdicts differs', () => {
    const one = fp(base);
    expect(fp(base, { strict: true })).not.toBe(one);
    expect(fp(base, { minScore: 0.5 })).not.toBe(one);
    expect(fp({ ...base, targets: { echo: (input: string) => input.toUpperCase() } })).not.toBe(one);
  });
});
